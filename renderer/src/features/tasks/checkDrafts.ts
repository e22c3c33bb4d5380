import type { AcceptanceCheck, CheckType } from '../../../../electron/contract/index.js';

/** Every field name the check types use (their names in the contract). */
export type CheckFieldKey =
  'path' | 'exists' | 'sha256' | 'text' | 'pattern' | 'url' | 'status' | 'file' | 'equals' | 'command' | 'exitCode';

/** One editable field of a check draft; every value is edited as text. */
export interface CheckField {
  key: CheckFieldKey;
  /** `codes`: one whole number, or several separated by commas (any of them passes). */
  kind: 'text' | 'number' | 'codes' | 'boolean' | 'lines' | 'json';
  required?: boolean;
}

/** The fields each check type offers, in the contract's terms (electron/contract/check.ts). */
export const CHECK_FIELDS: Record<CheckType, readonly CheckField[]> = {
  file_exists: [
    { key: 'path', kind: 'text', required: true },
    { key: 'exists', kind: 'boolean' },
  ],
  file_sha256: [
    { key: 'path', kind: 'text', required: true },
    { key: 'sha256', kind: 'text', required: true },
  ],
  file_contains: [
    { key: 'path', kind: 'text', required: true },
    { key: 'text', kind: 'text' },
    { key: 'pattern', kind: 'text' },
  ],
  http_status: [
    { key: 'url', kind: 'text', required: true },
    { key: 'status', kind: 'codes' },
  ],
  json_path: [
    { key: 'url', kind: 'text' },
    { key: 'file', kind: 'text' },
    { key: 'path', kind: 'text', required: true },
    { key: 'equals', kind: 'json' },
  ],
  command_exit: [
    { key: 'command', kind: 'lines', required: true },
    { key: 'exitCode', kind: 'number' },
  ],
};

/** Every check type, in the editor's order. */
export const CHECK_TYPES = Object.keys(CHECK_FIELDS) as CheckType[];

/** A check being edited: its type, optional name and the raw text of each field. */
export interface CheckDraft {
  type: CheckType;
  name: string;
  values: Record<string, string>;
  /** Fields the editor does not show (timeouts, `sandbox`, `cwd`…), kept as they came. */
  extra?: Record<string, unknown>;
}

/** A fresh draft of one type (booleans start true: `file_exists` means "exists" unless unticked). */
export function newDraft(type: CheckType): CheckDraft {
  const values: Record<string, string> = {};
  for (const field of CHECK_FIELDS[type]) values[field.key] = field.kind === 'boolean' ? 'true' : '';
  return { type, name: '', values };
}

/** Why a draft cannot become a check: the field key and a reason code (translated by the view). */
export class DraftError extends Error {
  constructor(
    readonly field: CheckFieldKey,
    readonly reason: 'required' | 'number' | 'json',
  ) {
    super(`${field}: ${reason}`);
  }
}

/**
 * Turns a draft into the contract's check object. Empty optional fields are left out so the
 * runtime's defaults apply; the runtime validates the rest (one of text/pattern, url/file…).
 */
export function toCheck(draft: CheckDraft): AcceptanceCheck {
  const out: Record<string, unknown> = { ...draft.extra, type: draft.type };
  if (draft.name.trim()) out.name = draft.name.trim();
  for (const field of CHECK_FIELDS[draft.type]) {
    const raw = draft.values[field.key] ?? '';
    if (field.kind === 'boolean') {
      out[field.key] = raw === 'true';
      continue;
    }
    if (!raw.trim()) {
      if (field.required) throw new DraftError(field.key, 'required');
      continue;
    }
    out[field.key] = parseField(field, raw);
  }
  return out as AcceptanceCheck;
}

function parseField(field: CheckField, raw: string): unknown {
  switch (field.kind) {
    case 'number': {
      const n = Number(raw.trim());
      if (!Number.isInteger(n)) throw new DraftError(field.key, 'number');
      return n;
    }
    case 'codes': {
      const parts = raw.split(',').map((part) => part.trim());
      const codes = parts.map(Number);
      if (parts.some((part, i) => part === '' || !Number.isInteger(codes[i]))) throw new DraftError(field.key, 'number');
      return codes.length === 1 ? codes[0] : codes;
    }
    case 'lines':
      return raw
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
    case 'json':
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        throw new DraftError(field.key, 'json');
      }
    default:
      return raw.trim();
  }
}

/** A check as a draft (e.g. a planner's proposal opened for review): the inverse of `toCheck`. */
export function fromCheck(check: AcceptanceCheck): CheckDraft {
  const source = check as Record<string, unknown>;
  const values: Record<string, string> = {};
  const shown = new Set<string>(['type', 'name', ...CHECK_FIELDS[check.type].map((f) => f.key)]);
  const extra = Object.fromEntries(Object.entries(source).filter(([key]) => !shown.has(key)));
  for (const field of CHECK_FIELDS[check.type]) {
    const value = source[field.key];
    if (value === undefined) values[field.key] = field.kind === 'boolean' ? 'true' : '';
    else if (field.kind === 'lines' && Array.isArray(value)) values[field.key] = value.join('\n');
    else if (field.kind === 'codes' && Array.isArray(value)) values[field.key] = value.join(', ');
    else if (field.kind === 'json') values[field.key] = JSON.stringify(value);
    else values[field.key] = String(value);
  }
  return { type: check.type, name: check.name ?? '', values, ...(Object.keys(extra).length ? { extra } : {}) };
}
