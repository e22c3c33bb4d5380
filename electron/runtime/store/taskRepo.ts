import type Database from 'better-sqlite3';
import type { SandboxMode, ServerText, Task, TaskState, Usage } from '../../contract/index.js';
import { toJson } from './jsonColumn.js';

interface TaskRow {
  id: string;
  title: string;
  state: string;
  state_reason: string | null;
  state_reason_text: string | null;
  plan: string;
  inputs: string;
  workspace: string;
  budget: string;
  usage: string;
  checks: string;
  control: string | null;
  control_reason: string | null;
  owner_pid: number | null;
  created_at: string;
  updated_at: string;
  ended_at: string | null;
  parent_id: string | null;
  agent: string | null;
  policy_profile: string | null;
  sandbox: string | null;
  answer: string | null;
}

/** A control request another client left for the task's runner. */
export type TaskControl = 'pause' | 'cancel';

function toTask(r: TaskRow): Task {
  return {
    id: r.id,
    title: r.title,
    state: r.state as TaskState,
    ...(r.state_reason !== null && { stateReason: r.state_reason }),
    ...(r.state_reason_text !== null && { stateReasonText: JSON.parse(r.state_reason_text) as ServerText }),
    plan: JSON.parse(r.plan),
    inputs: JSON.parse(r.inputs),
    workspace: r.workspace,
    budget: JSON.parse(r.budget),
    usage: JSON.parse(r.usage),
    checks: JSON.parse(r.checks),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    ...(r.ended_at !== null && { endedAt: r.ended_at }),
    ...(r.parent_id !== null && { parentId: r.parent_id }),
    ...(r.agent !== null && { agent: r.agent }),
    ...(r.policy_profile !== null && { policyProfile: r.policy_profile }),
    ...(r.sandbox !== null && { sandbox: r.sandbox as SandboxMode }),
    ...(r.answer !== null && { answer: r.answer }),
  };
}

/** Tasks table: one row per task, the current state plus the runner's lease and control flags. */
export class TaskRepo {
  private readonly byId: Database.Statement;
  private readonly setStateStmt: Database.Statement;
  private readonly setUsageStmt: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.byId = db.prepare('SELECT * FROM tasks WHERE id = ?');
    this.setStateStmt = db.prepare(
      'UPDATE tasks SET state = ?, state_reason = ?, state_reason_text = ?, updated_at = ?, ended_at = ? WHERE id = ?',
    );
    this.setUsageStmt = db.prepare('UPDATE tasks SET usage = ?, updated_at = ? WHERE id = ?');
  }

  insert(task: Task): void {
    this.db
      .prepare(
        `INSERT INTO tasks (id, title, state, state_reason, plan, inputs, workspace, budget, usage, checks, created_at, updated_at, parent_id, agent, policy_profile, sandbox)
         VALUES (@id, @title, @state, @stateReason, @plan, @inputs, @workspace, @budget, @usage, @checks, @createdAt, @updatedAt, @parentId, @agent, @policyProfile, @sandbox)`,
      )
      .run({
        ...task,
        stateReason: task.stateReason ?? null,
        parentId: task.parentId ?? null,
        agent: task.agent ?? null,
        policyProfile: task.policyProfile ?? null,
        sandbox: task.sandbox ?? null,
        plan: toJson(task.plan),
        inputs: toJson(task.inputs),
        budget: toJson(task.budget),
        usage: toJson(task.usage),
        checks: toJson(task.checks),
      });
  }

  get(id: string): Task | undefined {
    const row = this.byId.get(id) as TaskRow | undefined;
    return row && toTask(row);
  }

  list(filter: { state?: TaskState; limit: number; before?: string }): Task[] {
    const where: string[] = [];
    const args: unknown[] = [];
    if (filter.state) (where.push('state = ?'), args.push(filter.state));
    if (filter.before) (where.push('created_at < ?'), args.push(filter.before));
    const sql = `SELECT * FROM tasks ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id DESC LIMIT ?`;
    return (this.db.prepare(sql).all(...args, filter.limit) as TaskRow[]).map(toTask);
  }

  /** Tasks in any of the given states, oldest first. */
  inStates(states: readonly TaskState[]): Task[] {
    const marks = states.map(() => '?').join(',');
    return (this.db.prepare(`SELECT * FROM tasks WHERE state IN (${marks}) ORDER BY created_at`).all(...states) as TaskRow[]).map(toTask);
  }

  /** Tasks in any of the given states still owned by another process (the caller asks which are alive). */
  ownedElsewhere(states: readonly TaskState[], pid: number): { task: Task; ownerPid: number }[] {
    const marks = states.map(() => '?').join(',');
    const sql = `SELECT * FROM tasks WHERE state IN (${marks}) AND owner_pid IS NOT NULL AND owner_pid != ? ORDER BY created_at`;
    return (this.db.prepare(sql).all(...states, pid) as TaskRow[]).map((row) => ({ task: toTask(row), ownerPid: row.owner_pid! }));
  }

  /** `text` is the reason as a catalog code; without one the row keeps only the English. */
  setState(id: string, state: TaskState, reason: string | undefined, at: string, endedAt?: string, text?: ServerText): void {
    this.setStateStmt.run(state, reason ?? null, text ? toJson(text) : null, at, endedAt ?? null, id);
  }

  setUsage(id: string, usage: Usage, at: string): void {
    this.setUsageStmt.run(toJson(usage), at, id);
  }

  setChecks(id: string, checks: Task['checks'], at: string): void {
    this.db.prepare('UPDATE tasks SET checks = ?, updated_at = ? WHERE id = ?').run(toJson(checks), at, id);
  }

  /** Replaces the plan source (a goal task's reviewed acceptance checks). */
  setPlan(id: string, plan: Task['plan'], at: string): void {
    this.db.prepare('UPDATE tasks SET plan = ?, updated_at = ? WHERE id = ?').run(toJson(plan), at, id);
  }

  /** Links a delegated task to the task that started it. */
  setParent(id: string, parentId: string): void {
    this.db.prepare('UPDATE tasks SET parent_id = ? WHERE id = ?').run(parentId, id);
  }

  requestControl(id: string, control: TaskControl | null, reason?: string): void {
    this.db.prepare('UPDATE tasks SET control = ?, control_reason = ? WHERE id = ?').run(control, reason ?? null, id);
  }

  control(id: string): { control: TaskControl | null; reason: string | null } {
    const row = this.db.prepare('SELECT control, control_reason FROM tasks WHERE id = ?').get(id) as
      { control: TaskControl | null; control_reason: string | null } | undefined;
    return { control: row?.control ?? null, reason: row?.control_reason ?? null };
  }

  /**
   * Takes the runner lease for this process. Fails when another live process holds it,
   * so two runners never drive one task.
   */
  claim(id: string, pid: number, isAlive: (pid: number) => boolean): boolean {
    return this.db
      .transaction(() => {
        const row = this.db.prepare('SELECT owner_pid FROM tasks WHERE id = ?').get(id) as { owner_pid: number | null } | undefined;
        if (!row) return false;
        if (row.owner_pid !== null && row.owner_pid !== pid && isAlive(row.owner_pid)) return false;
        this.db.prepare('UPDATE tasks SET owner_pid = ? WHERE id = ?').run(pid, id);
        return true;
      })
      .immediate();
  }

  release(id: string, pid: number): void {
    this.db.prepare('UPDATE tasks SET owner_pid = NULL WHERE id = ? AND owner_pid = ?').run(id, pid);
  }

  owner(id: string): number | null {
    const row = this.db.prepare('SELECT owner_pid FROM tasks WHERE id = ?').get(id) as { owner_pid: number | null } | undefined;
    return row?.owner_pid ?? null;
  }
}
