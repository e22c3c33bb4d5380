import type { Exchange, ExchangeCall } from './exchange.js';

/** How a compacted summary is bounded. */
export interface CompactionOptions {
  /** Most recent compacted calls listed one per line; earlier ones only counted. */
  summaryLines: number;
  /** Characters of a result kept on its summary line. */
  resultPreviewChars: number;
}

/** What the calls before the listed ones add up to: a count, failures, and calls per tool. */
export interface EarlierCalls {
  count: number;
  failed: number;
  byTool: ReadonlyMap<string, number>;
}

/**
 * Older exchanges as a short structured summary, built from their records alone (no model call),
 * so the same records always give the same bytes.
 */
export function compactExchanges(exchanges: readonly Exchange[], options: CompactionOptions): string {
  const calls = exchanges.flatMap((e) => e.calls);
  const listed = options.summaryLines > 0 ? calls.slice(-options.summaryLines) : [];
  const earlier = calls.slice(0, calls.length - listed.length);
  const byTool = new Map<string, number>();
  for (const call of earlier) byTool.set(call.tool, (byTool.get(call.tool) ?? 0) + 1);
  const said = exchanges.flatMap((e) => e.userMessages ?? []);
  return compactionText({ count: earlier.length, failed: earlier.filter(isError).length, byTool }, listed, options, said);
}

/** The summary text from its parts; the incremental fold and `compactExchanges` share it, so their bytes agree. */
export function compactionText(
  earlier: EarlierCalls,
  listed: readonly ExchangeCall[],
  options: CompactionOptions,
  said: readonly string[] = [],
): string {
  if (earlier.count + listed.length + said.length === 0) return '';
  const lines = ['Earlier steps (compacted from the step records; re-run a read-only tool to see a full result):'];
  if (earlier.count > 0) {
    lines.push(
      `- ${earlier.count} older calls (${earlier.count - earlier.failed} ok, ${earlier.failed} failed): ${countText(earlier.byTool)}`,
    );
  }
  for (const call of listed) lines.push(summaryLine(call, options.resultPreviewChars));
  // The user's messages are instructions, not results: each one stays, whatever was compacted.
  for (const text of said) lines.push(`- the user said: ${oneLine(text, 2000)}`);
  return lines.join('\n');
}

/** A call counts as failed in a summary when its step ended in error. */
export function isError(call: ExchangeCall): boolean {
  return call.status === 'error';
}

function summaryLine(call: ExchangeCall, previewChars: number): string {
  const where = call.index === undefined ? '' : `#${call.index + 1} `;
  const args = oneLine(call.argumentsText, 120);
  const outcome = call.status === 'error' ? 'ERROR' : call.status === 'pending' ? 'pending' : 'ok';
  return `- ${where}${call.tool} ${args} → ${outcome}: ${oneLine(call.result, previewChars)}`;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}… (${flat.length} chars)` : flat;
}

function countText(counts: ReadonlyMap<string, number>): string {
  return [...counts.entries()]
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, n]) => `${name}×${n}`)
    .join(', ');
}
