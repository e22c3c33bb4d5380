import type { ModelMessage } from '../models/types.js';
import { CompactionFold } from './compactionFold.js';
import type { CompactionOptions } from './compaction.js';
import type { Exchange, ExchangeCall } from './exchange.js';
import { renderExchange } from './renderExchange.js';
import { estimateTokens } from './tokenEstimate.js';

/** What a call's step shows the model; the planner sets it as the step record changes. */
export type CallOutcome = Pick<ExchangeCall, 'status' | 'result' | 'images'>;

/** An exchange rendered once, with its token estimate, until one of its calls changes. */
interface Rendered {
  /** Dropped once the exchange is compacted (only its tokens still count); rendered again if it is needed. */
  messages: ModelMessage[] | undefined;
  tokens: number;
}

/**
 * A task's exchanges with what building the next request needs kept up to date as they change:
 * each exchange rendered and estimated once (again only when a call of it changes), the running
 * token total of the verbatim history, the compacted summary folded forward, and the calls whose
 * step may still change. So a step costs O(1) in the length of the history.
 */
export class Conversation {
  private readonly list: Exchange[] = [];
  private rendered: Rendered[] = [];
  /** Exchange position of every call. */
  private readonly positions = new Map<ExchangeCall, number>();
  /** Calls of a step not yet completed (insertion order = plan order). */
  private readonly unsettled = new Set<ExchangeCall>();
  private verbatim = 0;
  private fold: CompactionFold | undefined;
  /** Exchanges [0, released) hold no rendered messages: they are behind the compaction cut. */
  private released = 0;

  /** `resultCharLimit`: the clipping the requests will use (another one re-renders everything once). */
  constructor(
    exchanges: readonly Exchange[] = [],
    private resultCharLimit = Infinity,
  ) {
    for (const exchange of exchanges) this.push(exchange);
  }

  /** Every exchange, oldest first (read-only: change calls through `settle`). */
  get exchanges(): readonly Exchange[] {
    return this.list;
  }

  get length(): number {
    return this.list.length;
  }

  push(exchange: Exchange): void {
    const position = this.list.length;
    this.list.push(exchange);
    for (const call of exchange.calls) {
      this.positions.set(call, position);
      if (call.index !== undefined && call.status !== 'ok') this.unsettled.add(call);
    }
    this.rendered.push(this.render(exchange));
    this.verbatim += this.rendered[position]!.tokens;
  }

  /** Calls whose step may still change, oldest first: those not yet completed. */
  openCalls(): Iterable<ExchangeCall> {
    return this.unsettled;
  }

  /** Updates a call with what its step now shows; a no-op when nothing changed. Completed calls are settled for good. */
  settle(call: ExchangeCall, outcome: CallOutcome): void {
    const position = this.positions.get(call);
    if (position === undefined) throw new Error(`call ${call.id} is not part of this conversation`);
    if (call.status === outcome.status && call.result === outcome.result && sameImages(call.images, outcome.images)) return;
    this.fold?.changing(position, call, outcome.status);
    call.status = outcome.status;
    call.result = outcome.result;
    if (outcome.images?.length) call.images = outcome.images;
    else delete call.images;
    if (call.status === 'ok') this.unsettled.delete(call);
    const before = this.rendered[position]!;
    const after = this.render(this.list[position]!);
    this.rendered[position] = after;
    this.verbatim += after.tokens - before.tokens;
  }

  /** Estimated tokens of the whole history sent verbatim (with results clipped at `resultCharLimit`). */
  verbatimTokens(resultCharLimit: number): number {
    this.useLimit(resultCharLimit);
    return this.verbatim;
  }

  /** The messages of exchanges [from, length), rendered with `resultCharLimit`. */
  messagesFrom(from: number, resultCharLimit: number): ModelMessage[] {
    this.useLimit(resultCharLimit);
    // Compacted exchanges are not sent again: keep their token counts, let their messages go.
    for (; this.released < from; this.released++) this.rendered[this.released]!.messages = undefined;
    const out: ModelMessage[] = [];
    for (let i = from; i < this.rendered.length; i++) {
      const rendered = this.rendered[i]!;
      rendered.messages ??= renderExchange(this.list[i]!, this.resultCharLimit);
      out.push(...rendered.messages);
    }
    return out;
  }

  /** The compacted summary of exchanges [0, cut). */
  summary(cut: number, options: CompactionOptions): string {
    if (!this.fold?.fits(options)) this.fold = new CompactionFold(options);
    return this.fold.summary(this.list, cut);
  }

  private useLimit(resultCharLimit: number): void {
    if (resultCharLimit === this.resultCharLimit) return;
    this.resultCharLimit = resultCharLimit;
    this.rendered = this.list.map((e) => this.render(e));
    this.verbatim = this.rendered.reduce((n, r) => n + r.tokens, 0);
    this.released = 0;
  }

  private render(exchange: Exchange): Rendered {
    const messages = renderExchange(exchange, this.resultCharLimit);
    return { messages, tokens: estimateTokens(messages) };
  }
}

function sameImages(a: ExchangeCall['images'], b: ExchangeCall['images']): boolean {
  if ((a?.length ?? 0) !== (b?.length ?? 0)) return false;
  return (a ?? []).every((image, i) => {
    const other = b![i]!;
    return (
      image.type === other.type &&
      (image.type === 'text' ? image.text === (other as typeof image).text : image.data === (other as { data: string }).data)
    );
  });
}
