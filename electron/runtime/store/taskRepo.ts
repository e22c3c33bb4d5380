import path from 'node:path';
import type { SandboxMode, ServerText, Task, TaskState, Usage } from '../../contract/index.js';
import { AgentDeskError } from '../errors.js';
import { columnList } from './columnList.js';
import { toJson } from './jsonColumn.js';
import type { SqlSession } from './sql/sqlPort.js';
import { fenceRun } from './runFence.js';
import { liveOwner, newerPlannerState } from './workerRepo.js';

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
  owner: string | null;
  created_at: string;
  updated_at: string;
  ended_at: string | null;
  parent_id: string | null;
  agent: string | null;
  policy_profile: string | null;
  sandbox: string | null;
  answer: string | null;
  owner_subject: string | null;
  owner_name: string | null;
}

/** Every column of a task row, as statements select and return it. */
export const TASK_COLUMNS = columnList<TaskRow>({
  id: true,
  title: true,
  state: true,
  state_reason: true,
  state_reason_text: true,
  plan: true,
  inputs: true,
  workspace: true,
  budget: true,
  usage: true,
  checks: true,
  control: true,
  control_reason: true,
  owner: true,
  created_at: true,
  updated_at: true,
  ended_at: true,
  parent_id: true,
  agent: true,
  policy_profile: true,
  sandbox: true,
  answer: true,
  owner_subject: true,
  owner_name: true,
});

/** A control request another client left for the task's runner. */
export type TaskControl = 'pause' | 'cancel';

function toTask(r: TaskRow, dataFolder?: string): Task {
  return {
    id: r.id,
    title: r.title,
    state: r.state as TaskState,
    ...(r.state_reason !== null && { stateReason: r.state_reason }),
    ...(r.state_reason_text !== null && { stateReasonText: JSON.parse(r.state_reason_text) as ServerText }),
    plan: JSON.parse(r.plan),
    inputs: JSON.parse(r.inputs),
    workspace: dataFolder === undefined ? r.workspace : path.resolve(dataFolder, r.workspace),
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
    ...(r.owner_subject !== null && { owner: { subject: r.owner_subject, name: r.owner_name ?? r.owner_subject } }),
  };
}

const SET_STATE = `UPDATE tasks SET state = ?, state_reason = ?, state_reason_text = ?, updated_at = ?, ended_at = ?, usage = COALESCE(?, usage) WHERE id = ? RETURNING ${TASK_COLUMNS}`;
const stateParams = (id: string, { state, reason, text, at, endedAt, usage }: StateChange) => [
  state,
  reason ?? null,
  text ? toJson(text) : null,
  at,
  endedAt ?? null,
  usage ? toJson(usage) : null,
  id,
];

const marks = (values: readonly unknown[]) => values.map(() => '?').join(',');

/** A task's move to another state, as one row write. */
export interface StateChange {
  state: TaskState;
  reason?: string;
  text?: ServerText;
  at: string;
  /** Set when the state is terminal. */
  endedAt?: string;
  usage?: Usage;
}

/** Tasks table: one row per task, the current state plus the runner's lease and control flags. */
export class TaskRepo {
  /**
   * `dataFolder`: this process's data folder. A workspace inside it is stored relative to it
   * (`workspaces/<id>`) and read back under the reader's own, so a worker on another machine
   * runs the task in its own data folder, not in a path of the machine that created it.
   */
  constructor(
    private readonly db: SqlSession,
    private readonly dataFolder?: string,
  ) {}

  private readonly toTask = (row: TaskRow): Task => toTask(row, this.dataFolder);

  /** The workspace as stored: relative when it lies in this data folder. */
  private stored(workspace: string): string {
    if (this.dataFolder === undefined) return workspace;
    const relative = path.relative(this.dataFolder, workspace);
    return relative.startsWith('..') || path.isAbsolute(relative) ? workspace : relative;
  }

  async insert(task: Task): Promise<void> {
    await this.db.run(
      `INSERT INTO tasks (id, title, state, state_reason, plan, inputs, workspace, budget, usage, checks, created_at, updated_at, parent_id, agent, policy_profile, sandbox, owner_subject, owner_name)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        task.id,
        task.title,
        task.state,
        task.stateReason ?? null,
        toJson(task.plan),
        toJson(task.inputs),
        this.stored(task.workspace),
        toJson(task.budget),
        toJson(task.usage),
        toJson(task.checks),
        task.createdAt,
        task.updatedAt,
        task.parentId ?? null,
        task.agent ?? null,
        task.policyProfile ?? null,
        task.sandbox ?? null,
        task.owner?.subject ?? null,
        task.owner?.name ?? null,
      ],
    );
  }

  async get(id: string): Promise<Task | undefined> {
    const row = await this.db.get<TaskRow>(`SELECT ${TASK_COLUMNS} FROM tasks WHERE id = ?`, [id]);
    return row && this.toTask(row);
  }

  async list(filter: { state?: TaskState; limit: number; before?: string }): Promise<Task[]> {
    const where: string[] = [];
    const args: string[] = [];
    if (filter.state) (where.push('state = ?'), args.push(filter.state));
    if (filter.before) (where.push('created_at < ?'), args.push(filter.before));
    const sql = `SELECT ${TASK_COLUMNS} FROM tasks ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id DESC LIMIT ?`;
    return (await this.db.all<TaskRow>(sql, [...args, filter.limit])).map(this.toTask);
  }

  /** Tasks in any of the given states, oldest first. */
  async inStates(states: readonly TaskState[]): Promise<Task[]> {
    const rows = await this.db.all<TaskRow>(
      `SELECT ${TASK_COLUMNS} FROM tasks WHERE state IN (${marks(states)}) ORDER BY created_at`,
      states,
    );
    return rows.map(this.toTask);
  }

  /**
   * Tasks in any of the given states this worker may take up: nobody's, its own (the caller
   * leaves out those it runs now: one left owned is a run that stopped when the store went away),
   * or held by a worker that is no longer live (`fresh`: heartbeats at or after it are live), and
   * saved by a planner this build reads (`plannerVersion`). `orphansOnly` leaves out tasks nobody
   * owns (detached waits).
   */
  async takeable(
    states: readonly TaskState[],
    me: { id: string; fresh: string; plannerVersion: number },
    orphansOnly = false,
  ): Promise<Task[]> {
    const unowned = orphansOnly ? 'FALSE' : 'owner IS NULL';
    const sql = `SELECT ${TASK_COLUMNS} FROM tasks WHERE state IN (${marks(states)})
      AND (${unowned} OR (owner IS NOT NULL AND (owner = ? OR NOT ${liveOwner('tasks.owner')})))
      AND NOT ${newerPlannerState('tasks.id')} ORDER BY created_at`;
    return (await this.db.all<TaskRow>(sql, [...states, me.id, me.fresh, me.plannerVersion])).map(this.toTask);
  }

  /** Tasks whose row changed at or after `since` (ISO time), oldest change first: what a store watch publishes. */
  async changedSince(since: string): Promise<{ id: string; at: string }[]> {
    return this.db.all('SELECT id, updated_at AS at FROM tasks WHERE updated_at >= ? ORDER BY updated_at', [since]);
  }

  /**
   * Moves the task to a state (`text`: the reason as a catalog code; without one the row keeps
   * only the English), its usage as of the move in the same row write; the task as it now is in
   * this transaction (what a transition reports, without a read of its own).
   */
  async setState(id: string, to: StateChange): Promise<Task> {
    const row = await this.db.get<TaskRow>(SET_STATE, stateParams(id, to));
    if (row === undefined) throw new AgentDeskError('not_found', `no task ${id}`);
    return this.toTask(row);
  }

  /**
   * `setState` sent with the commit (on PostgreSQL the transaction stays one round trip): the
   * task as the move left it is read from what it returns once the transaction committed.
   */
  async setStateAtCommit(id: string, to: StateChange): Promise<() => Task> {
    const later = await this.db.deferGet<TaskRow>(SET_STATE, stateParams(id, to));
    return () => {
      const row = later.row;
      if (row === undefined) throw new AgentDeskError('not_found', `no task ${id}`);
      return this.toTask(row);
    };
  }

  async setUsage(id: string, usage: Usage, at: string): Promise<void> {
    await this.db.defer('UPDATE tasks SET usage = ?, updated_at = ? WHERE id = ?', [toJson(usage), at, id]);
  }

  async setChecks(id: string, checks: Task['checks'], at: string): Promise<void> {
    await this.db.defer('UPDATE tasks SET checks = ?, updated_at = ? WHERE id = ?', [toJson(checks), at, id]);
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
   * Takes the runner lease for worker `me`: when nobody holds it, `me` already does, or its holder
   * is no longer live — and the task's planner state is one `me` reads. One statement, so two
   * workers never both take it (on PostgreSQL the second waits on the row and re-checks).
   */
  async claim(
    id: string,
    me: { id: string; fresh: string; plannerVersion: number },
  ): Promise<{ task: Task; control: TaskControl | null; controlReason: string | null } | undefined> {
    // The row comes back with the lease: the run starts from it instead of reading it again.
    const sql = `UPDATE tasks SET owner = ? WHERE id = ?
      AND (owner IS NULL OR owner = ? OR NOT ${liveOwner('tasks.owner')})
      AND NOT ${newerPlannerState('tasks.id')} RETURNING ${TASK_COLUMNS}`;
    const row = await this.db.get<TaskRow>(sql, [me.id, id, me.id, me.fresh, me.plannerVersion]);
    return row && { task: this.toTask(row), control: (row.control as TaskControl | null) ?? null, controlReason: row.control_reason };
  }

  async release(id: string, owner: string): Promise<void> {
    await this.db.defer('UPDATE tasks SET owner = NULL WHERE id = ? AND owner = ?', [id, owner]);
  }

  /** The worker holding the task's run, if that worker is live. */
  async liveOwner(id: string, fresh: string): Promise<string | undefined> {
    const row = await this.db.get<{ owner: string }>(`SELECT owner FROM tasks WHERE id = ? AND ${liveOwner('tasks.owner')}`, [id, fresh]);
    return row?.owner;
  }

  /** Fails this transaction unless `owner` holds the task's run (`runFence.ts`): a run that lost its lease writes nothing more. */
  fence(id: string, owner: string): Promise<void> {
    return fenceRun(this.db, id, owner);
  }

  /** The planner-state version the task was saved with, if any (to say why an older worker leaves it). */
  async plannerVersion(id: string): Promise<number | undefined> {
    const row = await this.db.get<{ version: number }>('SELECT version FROM planner_states WHERE task_id = ?', [id]);
    return row === undefined ? undefined : Number(row.version);
  }
}
