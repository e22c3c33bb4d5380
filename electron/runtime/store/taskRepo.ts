import type { SandboxMode, ServerText, Task, TaskState, Usage } from '../../contract/index.js';
import { toJson } from './jsonColumn.js';
import type { SqlSession } from './sql/sqlPort.js';

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

const marks = (values: readonly unknown[]) => values.map(() => '?').join(',');

/** Tasks table: one row per task, the current state plus the runner's lease and control flags. */
export class TaskRepo {
  constructor(private readonly db: SqlSession) {}

  async insert(task: Task): Promise<void> {
    await this.db.run(
      `INSERT INTO tasks (id, title, state, state_reason, plan, inputs, workspace, budget, usage, checks, created_at, updated_at, parent_id, agent, policy_profile, sandbox)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        task.id,
        task.title,
        task.state,
        task.stateReason ?? null,
        toJson(task.plan),
        toJson(task.inputs),
        task.workspace,
        toJson(task.budget),
        toJson(task.usage),
        toJson(task.checks),
        task.createdAt,
        task.updatedAt,
        task.parentId ?? null,
        task.agent ?? null,
        task.policyProfile ?? null,
        task.sandbox ?? null,
      ],
    );
  }

  async get(id: string): Promise<Task | undefined> {
    const row = await this.db.get<TaskRow>('SELECT * FROM tasks WHERE id = ?', [id]);
    return row && toTask(row);
  }

  async list(filter: { state?: TaskState; limit: number; before?: string }): Promise<Task[]> {
    const where: string[] = [];
    const args: string[] = [];
    if (filter.state) (where.push('state = ?'), args.push(filter.state));
    if (filter.before) (where.push('created_at < ?'), args.push(filter.before));
    const sql = `SELECT * FROM tasks ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id DESC LIMIT ?`;
    return (await this.db.all<TaskRow>(sql, [...args, filter.limit])).map(toTask);
  }

  /** Tasks in any of the given states, oldest first. */
  async inStates(states: readonly TaskState[]): Promise<Task[]> {
    const rows = await this.db.all<TaskRow>(`SELECT * FROM tasks WHERE state IN (${marks(states)}) ORDER BY created_at`, states);
    return rows.map(toTask);
  }

  /** Tasks in any of the given states still owned by another process (the caller asks which are alive). */
  async ownedElsewhere(states: readonly TaskState[], pid: number): Promise<{ task: Task; ownerPid: number }[]> {
    const sql = `SELECT * FROM tasks WHERE state IN (${marks(states)}) AND owner_pid IS NOT NULL AND owner_pid != ? ORDER BY created_at`;
    const rows = await this.db.all<TaskRow>(sql, [...states, pid]);
    return rows.map((row) => ({ task: toTask(row), ownerPid: row.owner_pid! }));
  }

  /** Tasks whose row changed at or after `since` (ISO time), oldest change first: what a store watch publishes. */
  async changedSince(since: string): Promise<{ id: string; at: string }[]> {
    return this.db.all('SELECT id, updated_at AS at FROM tasks WHERE updated_at >= ? ORDER BY updated_at', [since]);
  }

  /** `text` is the reason as a catalog code; without one the row keeps only the English. */
  async setState(id: string, state: TaskState, reason: string | undefined, at: string, endedAt?: string, text?: ServerText): Promise<void> {
    await this.db.run('UPDATE tasks SET state = ?, state_reason = ?, state_reason_text = ?, updated_at = ?, ended_at = ? WHERE id = ?', [
      state,
      reason ?? null,
      text ? toJson(text) : null,
      at,
      endedAt ?? null,
      id,
    ]);
  }

  async setUsage(id: string, usage: Usage, at: string): Promise<void> {
    await this.db.run('UPDATE tasks SET usage = ?, updated_at = ? WHERE id = ?', [toJson(usage), at, id]);
  }

  async setChecks(id: string, checks: Task['checks'], at: string): Promise<void> {
    await this.db.run('UPDATE tasks SET checks = ?, updated_at = ? WHERE id = ?', [toJson(checks), at, id]);
  }

  /** Replaces the plan source (a goal task's reviewed acceptance checks). */
  async setPlan(id: string, plan: Task['plan'], at: string): Promise<void> {
    await this.db.run('UPDATE tasks SET plan = ?, updated_at = ? WHERE id = ?', [toJson(plan), at, id]);
  }

  /** Links a delegated task to the task that started it. */
  async setParent(id: string, parentId: string): Promise<void> {
    await this.db.run('UPDATE tasks SET parent_id = ? WHERE id = ?', [parentId, id]);
  }

  async requestControl(id: string, control: TaskControl | null, reason?: string): Promise<void> {
    await this.db.run('UPDATE tasks SET control = ?, control_reason = ? WHERE id = ?', [control, reason ?? null, id]);
  }

  async control(id: string): Promise<{ control: TaskControl | null; reason: string | null }> {
    const row = await this.db.get<{ control: TaskControl | null; control_reason: string | null }>(
      'SELECT control, control_reason FROM tasks WHERE id = ?',
      [id],
    );
    return { control: row?.control ?? null, reason: row?.control_reason ?? null };
  }

  /**
   * Takes the runner lease for this process. Fails when another live process holds it, so two
   * runners never drive one task. Run it in a transaction (the store's `claimTask` does): the
   * read and the write must not be split by another process's claim.
   */
  async claim(id: string, pid: number, isAlive: (pid: number) => boolean): Promise<boolean> {
    const row = await this.db.get<{ owner_pid: number | null }>(this.lockingRead('SELECT owner_pid FROM tasks WHERE id = ?'), [id]);
    if (!row) return false;
    if (row.owner_pid !== null && row.owner_pid !== pid && isAlive(row.owner_pid)) return false;
    await this.db.run('UPDATE tasks SET owner_pid = ? WHERE id = ?', [pid, id]);
    return true;
  }

  async release(id: string, pid: number): Promise<void> {
    await this.db.run('UPDATE tasks SET owner_pid = NULL WHERE id = ? AND owner_pid = ?', [id, pid]);
  }

  async owner(id: string): Promise<number | null> {
    const row = await this.db.get<{ owner_pid: number | null }>('SELECT owner_pid FROM tasks WHERE id = ?', [id]);
    return row?.owner_pid ?? null;
  }

  /** On PostgreSQL a read that decides a write locks its row; SQLite's write transaction already holds the file. */
  private lockingRead(sql: string): string {
    return this.db.dialect === 'postgres' ? `${sql} FOR UPDATE` : sql;
  }
}
