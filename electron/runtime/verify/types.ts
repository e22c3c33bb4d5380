import type { AcceptanceCheck, CheckResult, CheckType } from '../../contract/index.js';

/** Says why a URL may not be fetched by a check (undefined: it may). */
export type UrlPermit = (url: string) => string | undefined;

/** What a check may use: the workspace files are resolved against, and cancellation. */
export interface CheckContext {
  workspace: string;
  signal: AbortSignal;
  /**
   * The network gate for URL checks, asked for the first URL and for every redirect hop. The
   * runtime always sets it (see `gatedCheckRunner`); absent only where verifiers are driven alone.
   */
  permitUrl?: UrlPermit;
}

/** Runs one kind of acceptance check against the outside world. */
export interface Verifier<C extends AcceptanceCheck = AcceptanceCheck> {
  type: C['type'];
  run(check: C, ctx: CheckContext): Promise<CheckResult>;
}

/** The check shape of one check type, e.g. `CheckOf<'file_sha256'>`. */
export type CheckOf<T extends CheckType> = Extract<AcceptanceCheck, { type: T }>;
