import { JSONPath } from 'jsonpath-plus';

/** What a JSONPath found: nothing, or a value (an array when the path can match many). */
export type JsonQueryResult = { found: false } | { found: true; value: unknown };

/**
 * Evaluates a JSONPath with `wrap: false` semantics — one match at a definite path gives that
 * value, a wildcard/filter/recursive path gives an array of matches — while keeping "nothing
 * matched" apart from a matched `undefined`/`[]`. Throws for an invalid path or filter.
 */
export function queryJson(json: unknown, path: string): JsonQueryResult {
  // jsonpath-plus returns nothing for a falsy document, even for `$`.
  if (path.trim() === '$') return { found: true, value: json };
  if (typeof json !== 'object' || json === null) return { found: false };
  const matches = JSONPath({ path, json, wrap: true, resultType: 'all', eval: 'safe' }) as
    { value: unknown; hasArrExpr?: boolean }[] | undefined;
  if (matches === undefined || matches.length === 0) return { found: false };
  const [only] = matches;
  if (matches.length === 1 && only !== undefined && only.hasArrExpr !== true) {
    return { found: true, value: only.value };
  }
  return { found: true, value: matches.map((m) => m.value) };
}

/** Compact JSON for messages, cut to `max` characters. */
export function previewJson(value: unknown, max = 200): string {
  let text: string;
  try {
    text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
