import type { StepExpectation } from '../../../contract/index.js';

/** Text up to this long is pinned exactly; longer text by its opening. */
const EXACT_TEXT_MAX = 2_000;
const OPENING_LENGTH = 200;

/** Outcome fields worth pinning for every step, read or write: they say whether it worked. */
const OUTCOME_FIELDS = ['status', 'ok', 'exitCode'] as const;
/** What a read returned: pinned for read-only steps, so a changed page or file is noticed. */
const TEXT_FIELDS = ['content', 'body', 'text', 'stdout'] as const;
const FINGERPRINT_FIELDS = ['sha256'] as const;

/**
 * Expectations that hold for a step's recorded output and should hold again when the world has
 * not changed: the outcome (HTTP status, ok, exit code) of every step, and for read-only steps
 * what was read (text, or its hash). Volatile fields (headers, timings, sizes) are left out.
 */
export function expectationsFromOutput(output: unknown, readOnly: boolean): StepExpectation[] {
  if (typeof output === 'string') return readOnly ? textExpectation('$', output) : [];
  if (typeof output === 'number' || typeof output === 'boolean') return readOnly ? [{ path: '$', equals: output }] : [];
  if (output === null || typeof output !== 'object' || Array.isArray(output)) return [];
  const record = output as Record<string, unknown>;
  const out: StepExpectation[] = [];
  for (const key of OUTCOME_FIELDS) {
    const value = record[key];
    if (typeof value === 'number' || typeof value === 'boolean') out.push({ path: `$.${key}`, equals: value });
  }
  if (!readOnly) return out;
  for (const key of FINGERPRINT_FIELDS) {
    const value = record[key];
    if (typeof value === 'string') out.push({ path: `$.${key}`, equals: value });
  }
  // A hash already pins the text; without one, pin the text itself.
  if (out.some((e) => e.path === '$.sha256')) return out;
  for (const key of TEXT_FIELDS) {
    const value = record[key];
    if (typeof value === 'string') out.push(...textExpectation(`$.${key}`, value));
  }
  return out;
}

function textExpectation(path: string, text: string): StepExpectation[] {
  if (text.length <= EXACT_TEXT_MAX) return [{ path, equals: text }];
  return [{ path, contains: text.slice(0, OPENING_LENGTH) }];
}
