import type { Issue, Playbook } from '../../../contract/index.js';
import { AgentDeskError, describeIssues } from '../../errors.js';

/** Inputs split by where they may live: `values` are persisted, `secrets` stay in memory. */
export interface BoundInputs {
  values: Record<string, string | number | boolean>;
  secrets: Record<string, string>;
}

function coerce(raw: unknown, type: 'string' | 'number' | 'boolean'): string | number | boolean | undefined {
  if (type === 'string') return typeof raw === 'string' ? raw : raw === undefined ? undefined : String(raw);
  if (type === 'number') {
    const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
    return Number.isFinite(n) ? n : undefined;
  }
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  return undefined;
}

/**
 * Checks given input values against the playbook's declarations (types, required, unknown names)
 * and applies defaults. Secret inputs may come from `AGENT_DESK_INPUT_<NAME>` in `env`.
 */
export function bindInputs(playbook: Playbook, given: Record<string, unknown>, env: Record<string, string | undefined> = {}): BoundInputs {
  const issues: Issue[] = [];
  const bound: BoundInputs = { values: {}, secrets: {} };
  for (const name of Object.keys(given)) {
    if (!(name in playbook.inputs)) issues.push({ path: `inputs.${name}`, message: 'not declared by the playbook' });
  }
  for (const [name, decl] of Object.entries(playbook.inputs)) {
    const raw = given[name] ?? (decl.secret ? env[`AGENT_DESK_INPUT_${name.toUpperCase()}`] : undefined) ?? decl.default;
    if (raw === undefined) {
      if (decl.required) issues.push({ path: `inputs.${name}`, message: 'required' });
      continue;
    }
    const value = coerce(raw, decl.type);
    if (value === undefined) {
      issues.push({ path: `inputs.${name}`, message: `expected a ${decl.type}, got ${JSON.stringify(raw)}` });
      continue;
    }
    if (decl.secret) bound.secrets[name] = String(value);
    else bound.values[name] = value;
  }
  if (issues.length > 0) {
    throw new AgentDeskError('invalid_params', `invalid inputs for playbook "${playbook.name}":\n${describeIssues(issues)}`, { issues });
  }
  return bound;
}

/** Names of the playbook's secret inputs. */
export const secretInputNames = (playbook: Playbook): string[] =>
  Object.entries(playbook.inputs)
    .filter(([, d]) => d.secret)
    .map(([name]) => name);
