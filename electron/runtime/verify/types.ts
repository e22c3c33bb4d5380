import type { AcceptanceCheck, CheckResult } from '../../contract/index.js';

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
