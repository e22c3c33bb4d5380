import { z } from 'zod';
import type { Step } from '../../../contract/index.js';
import type { Exchange } from '../../context/exchange.js';
import { isoAt, type Clock } from '../../clock.js';
import { AgentDeskError, describeIssues, issuesFromZod } from '../../errors.js';
import { PlannerStateRepo, type PlannerStateWrite, type StoredPlannerState } from '../../store/plannerStateRepo.js';
import type { Repos, Store } from '../../store/store.js';
import type { PlannerDecision } from '../planner.js';
import { extend } from '../../extend.js';

/** The planner state this build writes; a state of a higher version is refused, a lower one upgraded. */
export const PLANNER_STATE_VERSION = 1;

type CallDecision = Extract<PlannerDecision, { type: 'call' }>;

/** A tool call of a model turn: the step that ran it (`index`), or the read-cache answer it got (`cached`). */
const PlannerCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  argumentsText: z.string(),
  tool: z.string(),
  index: z.number().int().min(0).optional(),
  cached: z.string().optional(),
});

/** One turn of the conversation after the stable prefix. Tool results are read from the step rows. */
export const PlannerTurnSchema = z.discriminatedUnion('role', [
  /** A message the user sent the task (`eventSeq`: its task event). */
  z.object({ role: z.literal('user'), text: z.string(), eventSeq: z.number().int().positive() }),
  z.object({ role: z.literal('assistant'), text: z.string(), calls: z.array(PlannerCallSchema) }),
]);
/** A conversation turn. */
export type PlannerTurn = z.infer<typeof PlannerTurnSchema>;

/** A call the model asked for that the engine may not have recorded yet. */
const QueuedCallSchema = z.object({
  index: z.number().int().min(0),
  tool: z.string(),
  args: z.record(z.string(), z.unknown()),
  safetyChecks: z.array(z.object({ id: z.string(), code: z.string(), message: z.string() })).optional(),
  onDeny: z.enum(['fail', 'continue']).optional(),
});

/** What is saved besides the turns (one small row, rewritten each save). */
const HeaderSchema = z.object({
  queue: z.array(QueuedCallSchema),
  /** The last user message (task event seq) the conversation holds. */
  inboxSeq: z.number().int().min(0),
  /** The model's final answer, once it finished without a tool call. */
  answer: z.string().optional(),
});
/** The header of a planner state. */
export type PlannerHeader = z.infer<typeof HeaderSchema>;

/** A goal task's planner state: the conversation after the stable prefix, and what comes next. */
export const PlannerStateSchema = HeaderSchema.extend({
  version: z.literal(PLANNER_STATE_VERSION),
  messages: z.array(PlannerTurnSchema),
});
/** A planner state, current version. */
export type PlannerStateRecord = z.infer<typeof PlannerStateSchema>;

/**
 * Upgrades by version: `UPGRADES[n]` turns a version-n state into version n+1. Version 0 is a
 * task from before planner states, upgraded by the planner itself from its step rows.
 */
const UPGRADES: Record<number, (state: Record<string, unknown>) => Record<string, unknown>> = {};

/**
 * Reads a stored state: upgraded from an older version, validated, or refused with a clear error
 * when a newer Agent Desk wrote it (so that version can still resume the task).
 */
export function parsePlannerState(stored: StoredPlannerState, taskId: string): PlannerStateRecord {
  if (!Number.isInteger(stored.version) || stored.version > PLANNER_STATE_VERSION || stored.version < 1) {
    throw new AgentDeskError(
      'unavailable',
      `task ${taskId} holds planner state version ${stored.version}; this Agent Desk reads versions 1 to ${PLANNER_STATE_VERSION}: resume it with the Agent Desk that ran it (or newer)`,
      { taskId, version: stored.version, supported: PLANNER_STATE_VERSION },
    );
  }
  let state: Record<string, unknown> = { ...(stored.header as Record<string, unknown>), version: stored.version, messages: stored.turns };
  for (let v = stored.version; v < PLANNER_STATE_VERSION; v++) state = { ...UPGRADES[v]!(state), version: v + 1 };
  const parsed = PlannerStateSchema.safeParse(state);
  if (!parsed.success) {
    const issues = issuesFromZod(parsed.error.issues);
    throw new AgentDeskError('internal', `the planner state of task ${taskId} is damaged:\n${describeIssues(issues)}`, { taskId, issues });
  }
  return parsed.data;
}

/** Where a planner keeps its state and finds the user's messages (the store, per task). */
export interface PlannerStateStore {
  load(): Promise<StoredPlannerState | undefined>;
  /**
   * `at`: when the model answered (its events are dated then, before the steps the turn led to).
   * `into`: the run's commit the save joins; without it the save is a transaction of its own.
   */
  save(write: Omit<PlannerStateWrite, 'version'>, into?: Repos): Promise<void>;
  /** The time now, as the store dates rows. */
  now(): string;
  /** User messages and hook context after this task event seq, oldest first. */
  inbox(afterSeq: number): Promise<{ seq: number; text: string }[]>;
}

/**
 * How often a planner on PostgreSQL reads its inbox when this process wrote nothing to it: a
 * message sent from another process waits at most this long (the same as a pause or cancel);
 * one sent here is read at once. On SQLite the read costs microseconds, so it happens each turn.
 */
const INBOX_POLL_MS = 100;

/** A task's planner state in the runtime's store; its inbox is the task's `user.message` and `hook.context` events. */
export function storedPlannerState(store: Store, taskId: string, clock: Clock): PlannerStateStore {
  let inboxReadAt = -Infinity; // real time: an I/O throttle, not task time
  const inboxMayHaveNews = () => {
    const news = store.inboxNews.take(taskId);
    if (store.dialect === 'sqlite' || news || performance.now() - inboxReadAt >= INBOX_POLL_MS) {
      inboxReadAt = performance.now();
      return true;
    }
    return false;
  };
  const save = (repos: Repos, write: Omit<PlannerStateWrite, 'version'>) =>
    new PlannerStateRepo(repos.sql).save(taskId, extend(write, { version: PLANNER_STATE_VERSION }));
  return {
    load: () => new PlannerStateRepo(store.sql).load(taskId),
    save: (write, into) => (into ? save(into, write) : store.transaction((tx) => save(tx, write))),
    now: () => isoAt(clock.now()),
    inbox: async (afterSeq) =>
      inboxMayHaveNews() ? (await store.events.inbox(taskId, afterSeq)).map((e) => ({ seq: e.seq, text: e.text })) : [],
  };
}

/** The conversation as the planner holds it, restored from a saved state. */
export interface RestoredConversation {
  exchanges: Exchange[];
  queue: CallDecision[];
  inboxSeq: number;
  answer?: string;
}

/** A saved state as exchanges (tool results are filled in from the step rows afterwards). */
export function restoreConversation(state: PlannerStateRecord): RestoredConversation {
  const exchanges: Exchange[] = [];
  let before: string[] = [];
  for (const turn of state.messages) {
    if (turn.role === 'user') {
      before.push(turn.text);
      continue;
    }
    const calls = turn.calls.map((c) => ({
      id: c.id,
      name: c.name,
      argumentsText: c.argumentsText,
      tool: c.tool,
      ...(c.index !== undefined && { index: c.index }),
      status: c.index === undefined ? ('ok' as const) : ('pending' as const),
      result: c.cached ?? '',
    }));
    exchanges.push({ text: turn.text, calls, ...(before.length > 0 && { userMessages: before }) });
    before = [];
  }
  return {
    exchanges,
    queue: state.queue.map(queuedDecision),
    inboxSeq: state.inboxSeq,
    ...(state.answer !== undefined && { answer: state.answer }),
  };
}

/** The turns one exchange adds to a saved state: the user messages it answered, then the model's turn. */
export function turnsOf(exchange: Exchange, userMessages: readonly { seq: number; text: string }[]): PlannerTurn[] {
  const turns: PlannerTurn[] = userMessages.map((m) => ({ role: 'user', text: m.text, eventSeq: m.seq }));
  turns.push({
    role: 'assistant',
    text: exchange.text,
    calls: exchange.calls.map((c) => ({
      id: c.id,
      name: c.name,
      argumentsText: c.argumentsText,
      tool: c.tool,
      ...(c.index !== undefined ? { index: c.index } : { cached: c.result }),
    })),
  });
  return turns;
}

/** Turns of exchanges rebuilt from step rows (no user messages are known for them). */
export function turnsOfRebuilt(exchanges: readonly Exchange[]): PlannerTurn[] {
  return exchanges.flatMap((e) => turnsOf(e, []));
}

/** The queue as saved. */
export function headerOf(queue: readonly CallDecision[], inboxSeq: number, answer?: string): PlannerHeader {
  return {
    queue: queue.map((q) => ({
      index: q.index,
      tool: q.tool ?? '',
      args: q.args,
      ...(q.safetyChecks && { safetyChecks: q.safetyChecks }),
      ...(q.onDeny && { onDeny: q.onDeny }),
    })),
    inboxSeq,
    ...(answer !== undefined && { answer }),
  };
}

/** Steps of the task no saved turn or queued call accounts for (tasks from before planner states, takeovers). */
export function unaccountedSteps(latest: ReadonlyMap<number, Step>, restored: RestoredConversation): Step[] {
  const known = new Set<number>();
  for (const e of restored.exchanges) for (const c of e.calls) if (c.index !== undefined) known.add(c.index);
  for (const q of restored.queue) known.add(q.index);
  return [...latest.values()].filter((s) => !known.has(s.index)).sort((a, b) => a.index - b.index);
}

function queuedDecision(q: z.infer<typeof QueuedCallSchema>): CallDecision {
  return {
    type: 'call',
    index: q.index,
    tool: q.tool,
    args: q.args,
    expect: [],
    retries: 0,
    continueOnError: true,
    ...(q.onDeny && { onDeny: q.onDeny }),
    ...(q.safetyChecks && { safetyChecks: q.safetyChecks }),
  };
}
