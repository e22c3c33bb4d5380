/**
 * How much estimating has been done in this process: calls and characters measured. Cheap to
 * keep, and what tests read to catch a return to work that grows with the task's history.
 */
export const estimateWork = { calls: 0, chars: 0 };

/**
 * A provider-neutral token estimate (~4 characters a token, images a flat 1,000): used for
 * compaction thresholds and the context benchmark, never for billing (providers report usage).
 */
export function estimateTokens(value: unknown): number {
  estimateWork.calls++;
  if (typeof value === 'string') {
    estimateWork.chars += value.length;
    return Math.ceil(value.length / 4);
  }
  const json = JSON.stringify(value, (key, v: unknown) => (key === 'data' && typeof v === 'string' && v.length > 256 ? '' : v)) ?? '';
  estimateWork.chars += json.length;
  return Math.ceil(json.length / 4) + imageCount(value) * 1000;
}

function imageCount(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + imageCount(v), 0);
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const self = record.type === 'image' ? 1 : 0;
    return self + Object.values(record).reduce((n: number, v) => n + imageCount(v), 0);
  }
  return 0;
}
