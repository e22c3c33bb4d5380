import { HookOutputSchema, type HookEvent, type HookOutput } from '../../contract/index.js';
import type { HookProcessResult } from './ports.js';

/** What a PreToolUse hook said about a call: it can only tighten the gate's decision. */
export type HookEffect = 'deny' | 'ask' | 'allow';

/** What one hook run means for the runtime. */
export interface HookVerdict {
  /** `ok`: ran and exited 0 or 2; `error` (other exit, could not start) and `timeout` object to nothing. */
  outcome: 'ok' | 'error' | 'timeout';
  /** PreToolUse: deny / ask / allow ("no objection"); UserPromptSubmit: `deny` blocks the prompt. */
  effect?: HookEffect;
  reason?: string;
  /** Text for the model's next request. */
  context?: string;
  /** Why the run counts as an error. */
  error?: string;
}

const STRICTNESS: Record<HookEffect, number> = { allow: 0, ask: 1, deny: 2 };

/**
 * Reads a hook's exit and output the way Claude Code does: exit 2 blocks with stderr as the
 * reason; exit 0 may print JSON (`decision`, `hookSpecificOutput.permissionDecision`,
 * `additionalContext`) or, for UserPromptSubmit, plain text that becomes context; any other
 * exit is an error that blocks nothing.
 */
export function readVerdict(event: HookEvent, result: HookProcessResult): HookVerdict {
  if (result.kind === 'spawn_error') return { outcome: 'error', error: `could not start: ${result.message}` };
  if (result.kind === 'timeout') return { outcome: 'timeout', error: `timed out after ${result.durationMs} ms` };
  if (result.exitCode === 2) return blockedByExit(event, result.stderr);
  if (result.exitCode !== 0) {
    const how = result.exitCode === null ? `was killed by ${result.signal ?? 'a signal'}` : `exited with code ${result.exitCode}`;
    const detail = firstLine(result.stderr);
    return { outcome: 'error', error: `${how}${detail ? `: ${detail}` : ''}` };
  }
  const text = result.stdout.trim();
  const output = jsonOutput(text);
  if (typeof output === 'string') return { outcome: 'error', error: output };
  if (output) return fromOutput(event, output);
  // Claude Code adds a UserPromptSubmit hook's plain stdout to the context; elsewhere it is only traced.
  return event === 'UserPromptSubmit' && text ? { outcome: 'ok', context: text } : { outcome: 'ok' };
}

/** Several hooks of one event ran: the strictest effect wins, reasons and contexts are all kept. */
export function combineVerdicts(verdicts: readonly HookVerdict[]): HookVerdict | undefined {
  let effect: HookEffect | undefined;
  for (const v of verdicts) if (v.effect && (!effect || STRICTNESS[v.effect] > STRICTNESS[effect])) effect = v.effect;
  const reasons = verdicts.filter((v) => v.effect === effect && v.reason).map((v) => v.reason!);
  const contexts = verdicts.flatMap((v) => (v.context ? [v.context] : []));
  if (!effect && contexts.length === 0) return undefined;
  return {
    outcome: 'ok',
    ...(effect && { effect }),
    ...(reasons.length > 0 && { reason: reasons.join('; ') }),
    ...(contexts.length > 0 && { context: contexts.join('\n') }),
  };
}

function blockedByExit(event: HookEvent, stderr: string): HookVerdict {
  const reason = stderr.trim() || 'the hook exited with code 2 and gave no reason on stderr';
  // After a call ran, "blocking" can only tell the model (Claude Code shows it stderr).
  if (event === 'PostToolUse') return { outcome: 'ok', context: reason };
  return { outcome: 'ok', effect: 'deny', reason };
}

function fromOutput(event: HookEvent, output: HookOutput): HookVerdict {
  const specific = output.hookSpecificOutput;
  const effects = [effectOf(output.decision), effectOf(specific?.permissionDecision)].filter((e): e is HookEffect => e !== undefined);
  const effect = effects.sort((a, b) => STRICTNESS[b] - STRICTNESS[a])[0];
  const reason = specific?.permissionDecisionReason ?? output.reason;
  const context = specific?.additionalContext ?? output.additionalContext;
  if (event === 'PostToolUse') {
    // `decision: block` after the fact is feedback for the model, like Claude Code's.
    const feedback = effect === 'deny' || effect === 'ask' ? reason : undefined;
    const text = [feedback, context].filter(Boolean).join('\n');
    return text ? { outcome: 'ok', context: text } : { outcome: 'ok' };
  }
  return {
    outcome: 'ok',
    ...(effect && { effect }),
    ...(reason !== undefined && { reason }),
    ...(context && { context }),
  };
}

function effectOf(decision: string | undefined): HookEffect | undefined {
  if (decision === 'block' || decision === 'deny') return 'deny';
  if (decision === 'ask') return 'ask';
  if (decision === 'allow' || decision === 'approve') return 'allow';
  return undefined; // `defer` or absent: no opinion
}

/** The JSON a hook printed, undefined for plain text, or why its JSON cannot be read. */
function jsonOutput(text: string): HookOutput | string | undefined {
  if (!text.startsWith('{')) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return `printed output that starts like JSON but is not (${(error as Error).message}); it was ignored`;
  }
  const parsed = HookOutputSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  return `printed JSON that is not a hook output (${issue.path.join('.') || '(root)'}: ${issue.message}); it was ignored`;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.slice(0, 300) ?? '';
}
