import { compactionText, isError, type CompactionOptions } from './compaction.js';
import type { Exchange, ExchangeCall } from './exchange.js';

/**
 * The compacted summary kept up to date as the cut moves forward: each exchange is counted once
 * when it falls behind the cut, and only the few listed calls are read again, so a step costs
 * O(summary lines), not O(history). Its text equals `compactExchanges` of the same exchanges.
 */
export class CompactionFold {
  /** Exchanges [0, folded) are counted in the totals below. */
  private folded = 0;
  private calls = 0;
  private failed = 0;
  private readonly byTool = new Map<string, number>();
  /** The user's messages in exchanges [0, folded), kept whole. */
  private readonly said: string[] = [];
  private cached: { cut: number; text: string } | undefined;

  constructor(private readonly options: CompactionOptions) {}

  /** True when this fold was made for these limits. */
  fits(options: CompactionOptions): boolean {
    return options.summaryLines === this.options.summaryLines && options.resultPreviewChars === this.options.resultPreviewChars;
  }

  /** The summary of exchanges [0, cut). */
  summary(exchanges: readonly Exchange[], cut: number): string {
    if (cut < this.folded) this.reset();
    for (; this.folded < cut; this.folded++) {
      const exchange = exchanges[this.folded]!;
      for (const call of exchange.calls) this.count(call, 1);
      if (exchange.userMessages) this.said.push(...exchange.userMessages);
    }
    if (this.cached?.cut === cut) return this.cached.text;
    const listed = lastCalls(exchanges, cut, this.options.summaryLines);
    const byTool = new Map(this.byTool);
    for (const call of listed) byTool.set(call.tool, byTool.get(call.tool)! - 1);
    const earlier = { count: this.calls - listed.length, failed: this.failed - listed.filter(isError).length, byTool };
    const text = compactionText(earlier, listed, this.options, this.said);
    this.cached = { cut, text };
    return text;
  }

  /** A call of exchange `position` is about to change: keep the totals right and drop the cached text. */
  changing(position: number, call: ExchangeCall, next: ExchangeCall['status']): void {
    if (position >= this.folded) return;
    this.failed += (next === 'error' ? 1 : 0) - (isError(call) ? 1 : 0);
    this.cached = undefined;
  }

  private count(call: ExchangeCall, sign: 1 | -1): void {
    this.calls += sign;
    if (isError(call)) this.failed += sign;
    this.byTool.set(call.tool, (this.byTool.get(call.tool) ?? 0) + sign);
  }

  private reset(): void {
    this.folded = 0;
    this.calls = 0;
    this.failed = 0;
    this.byTool.clear();
    this.said.length = 0;
    this.cached = undefined;
  }
}

/** The last `n` calls of exchanges [0, cut), oldest first, reading back only as far as needed. */
function lastCalls(exchanges: readonly Exchange[], cut: number, n: number): ExchangeCall[] {
  const out: ExchangeCall[] = [];
  for (let i = cut - 1; i >= 0 && out.length < n; i--) {
    const calls = exchanges[i]!.calls;
    for (let j = calls.length - 1; j >= 0 && out.length < n; j--) out.push(calls[j]!);
  }
  return out.reverse();
}
