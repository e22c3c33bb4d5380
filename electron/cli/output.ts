import { AgentDeskError, toErrorShape } from '../runtime/errors.js';
import { storeFailure } from '../runtime/store/openErrors.js';

/** Exit codes: scripts can tell success, failure, waiting and bad usage apart. */
export const EXIT = { ok: 0, failed: 1, usage: 2, waiting: 3 } as const;

/** Prints a value as JSON on stdout. */
export const printJson = (value: unknown): void => void process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

/** Reports an error: `{error:{code,message,details}}` with --json, a readable line otherwise. */
export function reportError(thrown: unknown, json: boolean): number {
  // A SQLite failure (corrupt page, full disk) is bad state the user can fix, not an internal error.
  const error = storeFailure(thrown) ?? thrown;
  const shape = toErrorShape(error);
  if (json) printJson({ error: shape });
  else process.stderr.write(`agent-desk: ${shape.message}\n`);
  const usage =
    error instanceof AgentDeskError &&
    ['invalid_params', 'invalid_playbook', 'not_found', 'invalid_request', 'bad_state'].includes(error.code);
  return usage ? EXIT.usage : EXIT.failed;
}

/** Parses repeated `k=v` options. */
export function parsePairs(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new AgentDeskError('invalid_params', `--input expects key=value, got "${pair}"`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

/** Pads a table row for terminal output. */
export const row = (cells: readonly string[], widths: readonly number[]): string =>
  cells
    .map((c, i) => c.padEnd(widths[i] ?? 0))
    .join('  ')
    .trimEnd();
