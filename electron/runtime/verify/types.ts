import type { AcceptanceCheck, CheckResult, CheckType } from '../../contract/index.js';

/** What a check may use: the workspace files are resolved against, and cancellation. */
export interface CheckContext {
  workspace: string;
  signal: AbortSignal;
}

/** Runs one kind of acceptance check against the outside world. */
export interface Verifier<C extends AcceptanceCheck = AcceptanceCheck> {
  type: C['type'];
  run(check: C, ctx: CheckContext): Promise<CheckResult>;
}

/** The check shape of one check type, e.g. `CheckOf<'file_sha256'>`. */
export type CheckOf<T extends CheckType> = Extract<AcceptanceCheck, { type: T }>;
