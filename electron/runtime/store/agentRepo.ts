import type Database from 'better-sqlite3';
import type { Agent, AgentSpec } from '../../contract/index.js';
import { toJson } from './jsonColumn.js';

interface AgentRow {
  name: string;
  spec: string;
  created_at: string;
  updated_at: string;
}

const toAgent = (r: AgentRow): Agent => ({
  ...(JSON.parse(r.spec) as AgentSpec),
  name: r.name,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** A delegation from a parent task to a child task. */
export interface Delegation {
  parentTaskId: string;
  callKey: string;
  childTaskId: string;
  agent: string;
}

/** Agent definitions, the agent each task runs as, and parent → child delegations. */
export class AgentRepo {
  constructor(private readonly db: Database.Database) {}

  save(agent: Agent): void {
    const { name, createdAt, updatedAt, ...spec } = agent;
    this.db
      .prepare('INSERT OR REPLACE INTO agents (name, spec, created_at, updated_at) VALUES (?, ?, ?, ?)')
      .run(name, toJson({ name, ...spec }), createdAt, updatedAt);
  }

  get(name: string): Agent | undefined {
    const row = this.db.prepare('SELECT * FROM agents WHERE name = ?').get(name) as AgentRow | undefined;
    return row && toAgent(row);
  }

  list(): Agent[] {
    return (this.db.prepare('SELECT * FROM agents ORDER BY name').all() as AgentRow[]).map(toAgent);
  }

  remove(name: string): boolean {
    return this.db.prepare('DELETE FROM agents WHERE name = ?').run(name).changes > 0;
  }

  /**
   * Sets the agent of a task created without one (tasks normally get theirs at creation). The
   * task row is the one record since migration 005, which copied the older `task_agents` rows.
   */
  assign(taskId: string, agent: string): void {
    this.db.prepare('UPDATE tasks SET agent = ? WHERE id = ?').run(agent, taskId);
  }

  /** The agent a task runs as, if any. */
  agentOf(taskId: string): string | undefined {
    const row = this.db.prepare('SELECT agent FROM tasks WHERE id = ?').get(taskId) as { agent: string | null } | undefined;
    return row?.agent ?? undefined;
  }

  recordDelegation(d: Delegation, atIso: string): void {
    this.db
      .prepare('INSERT INTO delegations (parent_task_id, call_key, child_task_id, agent, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(d.parentTaskId, d.callKey, d.childTaskId, d.agent, atIso);
  }

  /** The child an earlier attempt of the same call created, so a re-run waits for it instead of starting another. */
  delegation(parentTaskId: string, callKey: string): Delegation | undefined {
    const row = this.db
      .prepare('SELECT child_task_id, agent FROM delegations WHERE parent_task_id = ? AND call_key = ?')
      .get(parentTaskId, callKey) as { child_task_id: string; agent: string } | undefined;
    return row && { parentTaskId, callKey, childTaskId: row.child_task_id, agent: row.agent };
  }
}
