import type { Exchange, ExchangeCall } from './exchange.js';

/** How a compacted summary is bounded. */
export interface CompactionOptions {
  /** Most recent compacted calls listed one per line; earlier ones only counted. */
  summaryLines: number;
  /** Characters of a result kept on its summary line. */
  resultPreviewChars: number;
}

/**
 * Older exchanges as a short structured summary, built from their records alone (no model call),
 * so the same records always give the same bytes.
 */
export function compactExchanges(exchanges: readonly Exchange[], options: CompactionOptions): string {
  const calls = exchanges.flatMap((e) => e.calls);
  if (calls.length === 0) return '';
  const listed = calls.slice(-options.summaryLines);
  const earlier = calls.slice(0, calls.length - listed.length);
  const lines = ['Earlier steps (compacted from the step records; re-run a read-only tool to see a full result):'];
  if (earlier.length > 0) {
    const failed = earlier.filter((c) => c.status === 'error').length;
    const tools = countBy(earlier.map((c) => c.tool));
    lines.push(`- ${earlier.length} older calls (${earlier.length - failed} ok, ${failed} failed): ${tools}`);
  }
  for (const call of listed) lines.push(summaryLine(call, options.resultPreviewChars));
  return lines.join('\n');
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

function countBy(names: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, n]) => `${name}×${n}`)
    .join(', ');
}
