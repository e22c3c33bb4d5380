import type { Step, StepStatus } from '../../contract/index.js';
import { fromJson, toJson } from './jsonColumn.js';
import { upsertRows } from './sql/rowBatch.js';
import type { SqlSession, SqlValue } from './sql/sqlPort.js';

interface StepRow {
  id: string;
  task_id: string;
  idx: number;
  attempt: number;
  plan_step_id: string | null;
  tool: string;
  args: string;
  status: string;
  idempotency_key: string;
  read_only: number;
  idempotent: number;
  route: string | null;
  policy: string | null;
  approval_id: string | null;
  output: string | null;
  output_digest: string | null;
  error: string | null;
  error_text: string | null;
  tokens: number;
  cost_usd: number;
  started_at: string;
  ended_at: string | null;
  duration_ms: number | null;
}

function toStep(r: StepRow): Step {
  const step: Step = {
    id: r.id,
    taskId: r.task_id,
    index: r.idx,
    attempt: r.attempt,
    tool: r.tool,
    args: JSON.parse(r.args),
    status: r.status as StepStatus,
    idempotencyKey: r.idempotency_key,
    readOnly: r.read_only === 1,
    idempotent: r.idempotent === 1,
    tokens: r.tokens,
    costUsd: r.cost_usd,
    startedAt: r.started_at,
  };
  if (r.plan_step_id !== null) step.planStepId = r.plan_step_id;
  if (r.route !== null) step.route = fromJson(r.route);
  if (r.policy !== null) step.policy = fromJson(r.policy);
  if (r.approval_id !== null) step.approvalId = r.approval_id;
  if (r.output !== null) step.output = fromJson(r.output);
  if (r.output_digest !== null) step.outputDigest = r.output_digest;
  if (r.error !== null) step.error = r.error;
  if (r.error_text !== null) step.errorText = fromJson(r.error_text);
  if (r.ended_at !== null) step.endedAt = r.ended_at;
  if (r.duration_ms !== null) step.durationMs = r.duration_ms;
  return step;
}

function toRow(s: Step): Record<(typeof COLUMNS)[number], SqlValue> {
  return {
    id: s.id,
    task_id: s.taskId,
    idx: s.index,
    attempt: s.attempt,
    plan_step_id: s.planStepId ?? null,
    tool: s.tool,
    args: toJson(s.args),
    status: s.status,
    idempotency_key: s.idempotencyKey,
    read_only: s.readOnly ? 1 : 0,
    idempotent: s.idempotent ? 1 : 0,
    route: s.route ? toJson(s.route) : null,
    policy: s.policy ? toJson(s.policy) : null,
    approval_id: s.approvalId ?? null,
    output: s.output === undefined ? null : toJson(s.output),
    output_digest: s.outputDigest ?? null,
    error: s.error ?? null,
    error_text: s.errorText ? toJson(s.errorText) : null,
    tokens: s.tokens,
    cost_usd: s.costUsd,
    started_at: s.startedAt,
    ended_at: s.endedAt ?? null,
    duration_ms: s.durationMs ?? null,
  };
}

const COLUMNS = [
  'id',
  'task_id',
  'idx',
  'attempt',
  'plan_step_id',
  'tool',
  'args',
  'status',
  'idempotency_key',
  'read_only',
  'idempotent',
  'route',
  'policy',
  'approval_id',
  'output',
  'output_digest',
  'error',
  'error_text',
  'tokens',
  'cost_usd',
  'started_at',
  'ended_at',
  'duration_ms',
] as const;

const stepRows = upsertRows('steps', COLUMNS);

/** Steps table: every tool call, written before it runs and again after. */
export class StepRepo {
  constructor(private readonly db: SqlSession) {}

  /** Inserts or replaces the whole step record. */
  async save(step: Step): Promise<void> {
    const row = toRow(step);
    await this.db.deferRow(
      stepRows,
      COLUMNS.map((c) => row[c]),
    );
  }

  async forTask(taskId: string): Promise<Step[]> {
    return (await this.db.all<StepRow>(`SELECT ${COLUMNS.join(', ')} FROM steps WHERE task_id = ? ORDER BY idx, attempt`, [taskId])).map(
      toStep,
    );
  }

  async get(id: string): Promise<Step | undefined> {
    const row = await this.db.get<StepRow>(`SELECT ${COLUMNS.join(', ')} FROM steps WHERE id = ?`, [id]);
    return row && toStep(row);
  }
}
