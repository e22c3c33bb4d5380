import { createHash } from 'node:crypto';

/** JSON with object keys sorted, so equal values always give equal text. */
export function canonicalJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, v: unknown) => {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }) ?? 'null'
  );
}

/** Hex SHA-256 of text. */
export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A short stable digest of any JSON-like value. */
export const digestOf = (value: unknown): string => sha256Hex(canonicalJson(value)).slice(0, 32);

/** A digest of a value whose key order is already stable (tool outputs, planner args): skips sorting. */
export const quickDigestOf = (value: unknown): string => sha256Hex(JSON.stringify(value) ?? 'undefined').slice(0, 32);
