import { describe, expect, it } from 'vitest';
import type { HookProcessResult } from '../../../../electron/runtime/hooks/ports.js';
import { combineVerdicts, readVerdict } from '../../../../electron/runtime/hooks/verdict.js';

const exited = (exitCode: number, stdout = '', stderr = ''): HookProcessResult => ({
  kind: 'exited',
  exitCode,
  stdout,
  stderr,
  durationMs: 5,
});

describe('reading a hook run', () => {
  it('exit 2 denies with stderr as the reason; without stderr the reason says so', () => {
    expect(readVerdict('PreToolUse', exited(2, 'ignored', 'no deletes on Fridays\n'))).toEqual({
      outcome: 'ok',
      effect: 'deny',
      reason: 'no deletes on Fridays',
    });
    expect(readVerdict('UserPromptSubmit', exited(2)).reason).toMatch(/exited with code 2 and gave no reason/);
  });

  it('exit 2 after the call ran only tells the model', () => {
    expect(readVerdict('PostToolUse', exited(2, '', 'the file is too big'))).toEqual({ outcome: 'ok', context: 'the file is too big' });
  });

  it('JSON decisions: ours, the legacy Claude Code `block`, and hookSpecificOutput.permissionDecision', () => {
    expect(readVerdict('PreToolUse', exited(0, '{"decision":"deny","reason":"not here"}'))).toMatchObject({
      effect: 'deny',
      reason: 'not here',
    });
    expect(readVerdict('PreToolUse', exited(0, '{"decision":"block","reason":"no"}'))).toMatchObject({ effect: 'deny' });
    const specific = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'ask',
        permissionDecisionReason: 'check the path',
        additionalContext: 'paths are relative',
      },
    });
    expect(readVerdict('PreToolUse', exited(0, specific))).toEqual({
      outcome: 'ok',
      effect: 'ask',
      reason: 'check the path',
      context: 'paths are relative',
    });
    expect(readVerdict('PreToolUse', exited(0, '{"hookSpecificOutput":{"permissionDecision":"defer"}}'))).toEqual({ outcome: 'ok' });
  });

  it('the stricter of two decisions in one output wins: allow cannot hide a deny', () => {
    const both = JSON.stringify({ decision: 'allow', hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'x' } });
    expect(readVerdict('PreToolUse', exited(0, both)).effect).toBe('deny');
  });

  it('UserPromptSubmit: plain stdout is context; other events only trace it', () => {
    expect(readVerdict('UserPromptSubmit', exited(0, 'branch: main\n'))).toEqual({ outcome: 'ok', context: 'branch: main' });
    expect(readVerdict('PreToolUse', exited(0, 'hello'))).toEqual({ outcome: 'ok' });
  });

  it('PostToolUse: a block decision is feedback for the model, with the context', () => {
    const out = JSON.stringify({
      decision: 'block',
      reason: 'lint failed',
      hookSpecificOutput: { additionalContext: 'run the formatter' },
    });
    expect(readVerdict('PostToolUse', exited(0, out))).toEqual({ outcome: 'ok', context: 'lint failed\nrun the formatter' });
  });

  it('other exits, kills, failed starts, timeouts and unreadable JSON are errors that decide nothing', () => {
    expect(readVerdict('PreToolUse', exited(1, '', 'boom\nmore'))).toEqual({ outcome: 'error', error: 'exited with code 1: boom' });
    expect(readVerdict('PreToolUse', { kind: 'exited', exitCode: null, signal: 'SIGTERM', stdout: '', stderr: '', durationMs: 1 })).toEqual(
      {
        outcome: 'error',
        error: 'was killed by SIGTERM',
      },
    );
    expect(readVerdict('PreToolUse', { kind: 'spawn_error', message: 'ENOENT', durationMs: 0 })).toEqual({
      outcome: 'error',
      error: 'could not start: ENOENT',
    });
    expect(readVerdict('PreToolUse', { kind: 'timeout', stdout: '', stderr: '', durationMs: 1000 }).outcome).toBe('timeout');
    expect(readVerdict('PreToolUse', exited(0, '{"decision": "deny"')).outcome).toBe('error');
    const wrong = readVerdict('PreToolUse', exited(0, '{"decision":"maybe"}'));
    expect(wrong.outcome).toBe('error');
    expect(wrong.error).toMatch(/^printed JSON that is not a hook output \(decision: /);
    expect(wrong.effect).toBeUndefined();
  });
});

describe('several hooks of one event', () => {
  it('the strictest effect wins with its reasons; every context is kept; nothing said → undefined', () => {
    const combined = combineVerdicts([
      { outcome: 'ok', effect: 'allow', reason: 'fine' },
      { outcome: 'ok', effect: 'deny', reason: 'no' },
      { outcome: 'error', error: 'crashed' },
      { outcome: 'ok', effect: 'ask', reason: 'maybe', context: 'a' },
      { outcome: 'ok', effect: 'deny', reason: 'never', context: 'b' },
    ]);
    expect(combined).toEqual({ outcome: 'ok', effect: 'deny', reason: 'no; never', context: 'a\nb' });
    expect(combineVerdicts([{ outcome: 'ok' }, { outcome: 'timeout', error: 't' }])).toBeUndefined();
  });
});
