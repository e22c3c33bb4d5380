import type { Agent, AgentSpec } from '../../contract/index.js';
import { toJson } from './jsonColumn.js';
import type { SqlSession } from './sql/sqlPort.js';

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
  constructor(private readonly db: SqlSession) {}

  async save(agent: Agent): Promise<void> {
    const { name, createdAt, updatedAt, ...spec } = agent;
    await this.db.run(
      `INSERT INTO agents (name, spec, created_at, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT(name) DO UPDATE SET spec = excluded.spec, created_at = excluded.created_at, updated_at = excluded.updated_at`,
      [name, toJson({ name, ...spec }), createdAt, updatedAt],
    );
  }

  async get(name: string): Promise<Agent | undefined> {
    const row = await this.db.get<AgentRow>('SELECT * FROM agents WHERE name = ?', [name]);
    return row && toAgent(row);
  }

  async list(): Promise<Agent[]> {
    return (await this.db.all<AgentRow>('SELECT * FROM agents ORDER BY name')).map(toAgent);
  }

  async remove(name: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM agents WHERE name = ?', [name])).changes > 0;
  }

  /**
   * Sets the agent of a task created without one (tasks normally get theirs at creation). The
   * task row is the one record since migration 005, which copied the older `task_agents` rows.
   */
  async assign(taskId: string, agent: string): Promise<void> {
    await this.db.run('UPDATE tasks SET agent = ? WHERE id = ?', [agent, taskId]);
  }

  /** The agent a task runs as, if any. */
  async agentOf(taskId: string): Promise<string | undefined> {
    const row = await this.db.get<{ agent: string | null }>('SELECT agent FROM tasks WHERE id = ?', [taskId]);
    return row?.agent ?? undefined;
  }

  async recordDelegation(d: Delegation, atIso: string): Promise<void> {
    await this.db.run('INSERT INTO delegations (parent_task_id, call_key, child_task_id, agent, created_at) VALUES (?, ?, ?, ?, ?)', [
      d.parentTaskId,
      d.callKey,
      d.childTaskId,
      d.agent,
      atIso,
    ]);
  }

  /** The child an earlier attempt of the same call created, so a re-run waits for it instead of starting another. */
  async delegation(parentTaskId: string, callKey: string): Promise<Delegation | undefined> {
    const row = await this.db.get<{ child_task_id: string; agent: string }>(
      'SELECT child_task_id, agent FROM delegations WHERE parent_task_id = ? AND call_key = ?',
      [parentTaskId, callKey],
    );
    return row && { parentTaskId, callKey, childTaskId: row.child_task_id, agent: row.agent };
  }
}
