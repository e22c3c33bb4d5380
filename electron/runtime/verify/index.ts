import type { AcceptanceCheck, CheckResult } from '../../contract/index.js';
import { commandExitVerifier } from './commandExit.js';
import { fileContainsVerifier } from './fileContains.js';
import { fileExistsVerifier } from './fileExists.js';
import { fileSha256Verifier } from './fileSha256.js';
import { httpStatusVerifier } from './httpStatus.js';
import { jsonPathVerifier } from './jsonPath.js';
import { measureCheck } from './measure.js';
import type { CheckContext, Verifier } from './types.js';

export { defaultCheckName } from './checkName.js';
export { assertChecksPermitted } from './checkAdmission.js';
export { gatedCheckRunner, type CheckRunContext } from './checkGate.js';
export type { CheckContext, CheckOf, Verifier } from './types.js';

// A sandbox check run on the host would test (or execute on) the wrong machine.
const NO_DESKTOP =
  'not run: this check says sandbox: true, but this runtime has no desktop sandbox wired (Docker); ' +
  'it never runs on the host instead — run the task with the desktop tier (agent-desk run/serve with Docker) or drop sandbox: true';

/** The built-in verifiers, one per acceptance check type. */
export const builtinVerifiers: readonly Verifier[] = [
  fileExistsVerifier,
  fileSha256Verifier,
  fileContainsVerifier,
  httpStatusVerifier,
  jsonPathVerifier,
  commandExitVerifier,
];

/**
 * Runs every check in order — all of them, even after a failure, so the user sees the whole
 * picture — and returns one result per check. Never throws for a failing check.
 */
export async function runChecks(
  checks: readonly AcceptanceCheck[],
  ctx: CheckContext,
  verifiers: readonly Verifier[] = builtinVerifiers,
): Promise<CheckResult[]> {
  const byType = new Map(verifiers.map((v) => [v.type, v]));
  const results: CheckResult[] = [];
  for (const check of checks) {
    const verifier = byType.get(check.type);
    results.push(
      check.sandbox === true
        ? await measureCheck(check, async () => ({ passed: false, output: NO_DESKTOP }))
        : verifier === undefined
          ? await measureCheck(check, async () => ({ passed: false, output: `no verifier for check type ${check.type}` }))
          : await verifier.run(check, ctx).catch((error: unknown) => measureCheck(check, () => Promise.reject(error))),
    );
  }
  return results;
}
