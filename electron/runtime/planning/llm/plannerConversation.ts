import type { Step, TaskEventKind } from '../../../contract/index.js';
import type { Exchange } from '../../context/exchange.js';
import { AgentDeskError } from '../../errors.js';
import type { ModelResponse } from '../../models/types.js';
import type { PlannerDecision, PlannerState } from '../planner.js';
import {
  headerOf,
  parsePlannerState,
  restoreConversation,
  turnsOf,
  turnsOfRebuilt,
  unaccountedSteps,
  type PlannerStateStore,
  type PlannerTurn,
} from './plannerState.js';
import type { ToolCatalog } from './toolCatalog.js';

type CallDecision = Extract<PlannerDecision, { type: 'call' }>;
type Inbox = readonly { seq: number; text: string }[];
/** The run's commit queue (`PlannerState.commit`); without one a save commits on its own. */
type Commit = PlannerState['commit'];

/**
 * The durable side of an LLM planner's conversation: restores it once (from the saved state,
 * plus steps no saved turn accounts for), reads the user's unread messages, and saves each
 * answered model turn — with its queue, its events and, at the end, the task's answer — as one
 * write in the run's commit. Without a store it only rebuilds from the step rows, as before.
 */
export class PlannerConversation {
  restored = false;
  /** The model's final answer, once given (a restored task that has one is done). */
  answer: string | undefined;
  private inboxSeq = 0;
  /** Turns rebuilt from step rows, saved with the next turn. */
  private unsaved: PlannerTurn[] = [];

  constructor(
    private readonly store: PlannerStateStore | undefined,
    private readonly catalog: ToolCatalog,
  ) {}

  /**
   * The exchanges and queue to continue with; a state this build cannot read leaves the task
   * waiting (a newer Agent Desk can resume it) and a damaged one fails it.
   */
  async restore(
    taskId: string,
    latest: ReadonlyMap<number, Step>,
  ): Promise<{ exchanges: Exchange[]; queue: CallDecision[] } | PlannerDecision> {
    let conversation: ReturnType<typeof restoreConversation> = { exchanges: [], queue: [], inboxSeq: 0 };
    try {
      const stored = await this.store?.load();
      if (stored) conversation = restoreConversation(parsePlannerState(stored, taskId));
    } catch (error) {
      if (!(error instanceof AgentDeskError)) throw error;
      return error.code === 'unavailable' ? { type: 'wait', reason: error.message } : { type: 'fail', reason: error.message };
    }
    const rebuilt = rebuildExchanges(unaccountedSteps(latest, conversation), this.catalog);
    this.unsaved = turnsOfRebuilt(rebuilt);
    this.inboxSeq = conversation.inboxSeq;
    this.answer = conversation.answer;
    this.restored = true;
    return {
      exchanges: [...conversation.exchanges, ...rebuilt],
      // Queued calls the engine already recorded are resumed from their step rows instead.
      queue: conversation.queue.filter((q) => !latest.has(q.index)),
    };
  }

  /** User messages sent since the last saved turn. */
  async unread(): Promise<Inbox> {
    return (await this.store?.inbox(this.inboxSeq)) ?? [];
  }

  /**
   * Saves a turn that asked for tools, with the queue as it stands before the engine takes any
   * call, in the commit of the first step it leads to.
   */
  save(exchange: Exchange, inbox: Inbox, queue: readonly CallDecision[], response: ModelResponse, commit?: Commit): Promise<void> {
    this.attach(exchange, inbox);
    return this.write(commit, turnsOf(exchange, inbox), queue, [...reasoningOf(response), ...textOf(response.text, 'model.text')]);
  }

  /** Saves the final turn: the answer joins the state, the task's events and the task row. */
  finish(response: ModelResponse, inbox: Inbox, commit?: Commit): Promise<void> {
    const exchange: Exchange = { text: response.text, calls: [] };
    this.attach(exchange, inbox);
    this.answer = response.text;
    const events = [...reasoningOf(response), ...textOf(response.text, 'answer')];
    return this.write(commit, turnsOf(exchange, inbox), [], events, response.text.trim() || undefined);
  }

  /** The conversation now holds these messages (the exchange renders them before its turn). */
  private attach(exchange: Exchange, inbox: Inbox): void {
    if (inbox.length === 0) return;
    exchange.userMessages ??= inbox.map((m) => m.text);
    this.inboxSeq = inbox.at(-1)!.seq;
  }

  private write(
    commit: Commit,
    turns: PlannerTurn[],
    queue: readonly CallDecision[],
    events: { kind: TaskEventKind; text: string }[],
    answer?: string,
  ): Promise<void> {
    const store = this.store;
    const all = this.unsaved.length > 0 ? [...this.unsaved, ...turns] : turns;
    this.unsaved = [];
    if (!store) return Promise.resolve();
    // Taken now: the queue changes as the engine takes calls, and the save must hold it whole.
    // Dated now, when the model answered: the commit that carries it may come after its first step started.
    const write = {
      header: headerOf(queue, this.inboxSeq, this.answer),
      turns: all,
      events,
      at: store.now(),
      ...(answer !== undefined && { answer }),
    };
    return commit ? commit((tx) => store.save(write, tx)) : store.save(write);
  }
}

function textOf(text: string, kind: TaskEventKind): { kind: TaskEventKind; text: string }[] {
  return text.trim() ? [{ kind, text }] : [];
}

function reasoningOf(response: ModelResponse): { kind: TaskEventKind; text: string }[] {
  return response.reasoning?.trim() ? [{ kind: 'model.reasoning', text: response.reasoning }] : [];
}

/** One exchange per step, in plan order, as if the model had called each (its own ids are unknown). */
function rebuildExchanges(steps: readonly Step[], catalog: ToolCatalog): Exchange[] {
  return steps.map((step) => ({
    text: '',
    calls: [
      {
        id: `call_step_${step.index}`,
        name: catalog.wireName(step.tool),
        argumentsText: JSON.stringify(step.args ?? {}),
        tool: step.tool,
        index: step.index,
        status: 'pending',
        result: '',
      },
    ],
  }));
}
