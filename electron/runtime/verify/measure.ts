import type { AcceptanceCheck, CheckResult, ServerText, ServerTextParam } from '../../contract/index.js';
import { defaultCheckName, defaultCheckNameText } from './checkName.js';

/** What a check observed. */
export interface Observation {
  passed: boolean;
  /** What was seen: the actual digest, status, command output tail, or the error text. */
  output: string;
  /** `output` as a catalog code (`check.*`). */
  text?: ServerText;
}

/** An observation whose output has a catalog code; `detail` carries machine words shown verbatim. */
export function observed(
  passed: boolean,
  output: string,
  code: string,
  params: Record<string, ServerTextParam> = {},
  detail?: string,
): Observation {
  return { passed, output, text: { code, params, ...(detail !== undefined && { detail }) } };
}

/**
 * Runs one observation and shapes it as a CheckResult with its name and duration. An unexpected
 * exception becomes a failed result, so one broken check never hides the others.
 */
export async function measureCheck(check: AcceptanceCheck, observe: () => Promise<Observation>): Promise<CheckResult> {
  const started = performance.now();
  let observation: Observation;
  try {
    observation = await observe();
  } catch (error) {
    observation = observed(false, `check error: ${errorText(error)}`, 'check.error', {}, errorText(error));
  }
  const nameText = defaultCheckNameText(check);
  return {
    name: defaultCheckName(check),
    ...(nameText && { nameText }),
    type: check.type,
    passed: observation.passed,
    output: observation.output,
    ...(observation.text && { outputText: observation.text }),
    durationMs: Math.round((performance.now() - started) * 100) / 100,
  };
}

/** An error's message, with the cause (e.g. `connect ECONNREFUSED`) when there is one. */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause !== undefined && cause !== error.message ? `${error.message}: ${cause}` : error.message;
}

/** Cuts text to `max` characters, marking the cut. */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
