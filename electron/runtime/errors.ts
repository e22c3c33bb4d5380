import type { ErrorCode, ErrorShape, Issue } from '../contract/index.js';

/** The one error type the runtime throws on purpose: a stable code, a message, optional details. */
export class AgentDeskError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AgentDeskError';
  }

  /** The wire shape (`{code, message, details}`). */
  toShape(): ErrorShape {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

/** Turns any thrown value into the wire shape without leaking stack traces. */
export function toErrorShape(error: unknown): ErrorShape {
  if (error instanceof AgentDeskError) return error.toShape();
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal', message };
}

/** Formats a zod-style issue path as `steps[2].args.path`. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out === '' ? '(root)' : out;
}

/** Converts zod issues into located issues, one per problem. */
export function issuesFromZod(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  prefix: readonly PropertyKey[] = [],
): Issue[] {
  return issues.map((i) => ({ path: formatIssuePath([...prefix, ...i.path]), message: i.message }));
}

/** Renders issues one per line: `steps[2].args.path: required`. */
export function describeIssues(issues: readonly Issue[]): string {
  return issues.map((i) => `${i.path}: ${i.message}`).join('\n');
}
