import { describe, expect, it } from 'vitest';
import type { CheckResult, ServerText } from '../../../electron/contract/index.js';
import { exhaustedBudget } from '../../../electron/runtime/engine/budgets.js';
import { type StateReason, stateReasons, stepError, stepErrors } from '../../../electron/runtime/engine/stateReasons.js';
import { byteSizeText } from '../../../electron/runtime/tools/builtin/byteSize.js';
import { previewSummary } from '../../../electron/runtime/tools/previewSummary.js';
import { serverTextParts, stepErrorParts, translateServerText } from '../../../renderer/src/i18n/index.js';

const step = { index: 1, tool: 'fs.delete' };
const deletePreview = previewSummary('Delete old.log (5 bytes)', 'preview.deleteFile', { path: 'old.log', size: byteSizeText(5) });
const missing: CheckResult = {
  name: 'file_exists report.md',
  type: 'file_exists',
  passed: false,
  output: 'not found: /ws/report.md',
  outputText: { code: 'check.notFound', params: { path: '/ws/report.md' } },
  durationMs: 1,
};

/** Reasons whose English catalog entries must read exactly as the server's English (the CLI's words). */
const SAME_IN_ENGLISH: Record<string, StateReason> = {
  runStarted: stateReasons.runStarted(),
  approvalNeeded: stateReasons.approvalNeeded(deletePreview),
  approvalNeededUncoded: stateReasons.approvalNeeded({ summary: 'fs: write_file /x (write)' }),
  approvedBy: stateReasons.approvedBy('ui:alice'),
  approvedByNobody: stateReasons.approvedBy(undefined),
  denied: stateReasons.stepDecided(step, 'denied', 'cli', 'not today'),
  deniedByUser: stateReasons.stepDeniedByUser(step, ' keep it '),
  deniedByUserNoReason: stateReasons.stepDeniedByUser(step, '  '),
  deniedByPolicy: stateReasons.stepDeniedByPolicy(step, 'denied by rule "fs.delete(**)"', [
    { code: 'policy.ruleDenies', params: { rule: 'fs.delete(**)' } },
  ]),
  deniedByUncodedPolicy: stateReasons.stepDeniedByPolicy(step, 'the skill "notes" allows only fs.read', undefined),
  deniedByHook: stateReasons.stepDeniedByHook(step, 'PreToolUse hook: deleting is off on Fridays'),
  goalBlocked: stateReasons.goalBlockedByHook('UserPromptSubmit hook: no goals about payroll'),
  failed: stateReasons.stepFailed(step, 'cannot delete old.log: busy'),
  retry: stateReasons.stepRetry(step, 2, 'ECONNRESET'),
  cannotRun: stateReasons.stepCannotRun(step, 'no tool provides file.delete'),
  failedByUser: stateReasons.stepFailedByUser(step),
  uncertain: stateReasons.stepUncertain(step),
  secret: stateReasons.secretMissing('token'),
  runtimeError: stateReasons.runtimeError('disk full'),
  gaveUp: stateReasons.plannerGaveUp('nothing left to try'),
  review: stateReasons.plannerWaits('review acceptance checks'),
  providerDown: stateReasons.plannerWaits('the model provider is unavailable'),
  cancelled: stateReasons.control('cancel', 'cancelled by the user'),
  paused: stateReasons.control('pause', 'paused by the user'),
  pauseRequested: stateReasons.control('pause', null),
  cancelledBecause: stateReasons.control('cancel', 'queue drained'),
  checksFailed: stateReasons.checksFailed([missing, { ...missing, name: 'x', output: 'weird', outputText: undefined }]),
  checksPassed: stateReasons.checksPassed(3),
  noChecks: stateReasons.checksPassed(0),
  loop: stateReasons.loopDetected('fs.read', 3),
  asks: stateReasons.toolAsks('mcp__fs', 'Which folder?'),
  answered: stateReasons.userAnswered('mcp__fs', 'accept'),
  budget: exhaustedBudget(
    { maxSteps: 2, maxTokens: 10, maxCostUsd: 1, maxWallMs: 1000 },
    { steps: 2, modelCalls: 0, tokensIn: 0, tokensOut: 0, costUsd: 0, wallMs: 0 },
  )!,
  cost: exhaustedBudget(
    { maxSteps: 9, maxTokens: 10, maxCostUsd: 1, maxWallMs: 1000 },
    { steps: 0, modelCalls: 0, tokensIn: 0, tokensOut: 0, costUsd: 1.5, wallMs: 0 },
  )!,
};

describe('task state reasons as codes', () => {
  it.each(Object.entries(SAME_IN_ENGLISH))('%s: the English catalog reads as the server wrote it', (_, reason) => {
    expect(translateServerText('en', reason.text, '(unknown code)')).toBe(reason.reason);
  });

  it('read in 简体中文 with nested texts (a preview summary, check outcomes, a byte size) in 简体中文 too', () => {
    expect(translateServerText('zh-CN', stateReasons.approvalNeeded(deletePreview).text, 'x')).toBe('需要审批：删除 old.log（5 字节）');
    expect(translateServerText('zh-CN', stateReasons.checksFailed([missing, missing]).text, 'x')).toBe(
      '验收检查未通过：file_exists report.md（未找到：/ws/report.md）；file_exists report.md（未找到：/ws/report.md）',
    );
    expect(translateServerText('zh-CN', stateReasons.stepDeniedByUser(step, undefined).text, 'x')).toBe(
      '第 2 步（fs.delete）被用户拒绝，未说明原因',
    );
  });

  it('machine words stay apart, verbatim: a tool error, a model’s words, a client’s own cancel reason', () => {
    expect(serverTextParts('zh-CN', stateReasons.stepFailed(step, 'EBUSY: resource busy').text, 'x')).toEqual({
      sentence: '第 2 步（fs.delete）失败',
      detail: 'EBUSY: resource busy',
    });
    expect(serverTextParts('zh-CN', stateReasons.stepDeniedByPolicy(step, 'the skill allows only fs.read', undefined).text, 'x')).toEqual({
      sentence: '第 2 步（fs.delete）被策略拒绝',
      detail: 'the skill allows only fs.read',
    });
    expect(serverTextParts('zh-CN', stateReasons.stepDeniedByHook(step, 'PreToolUse hook: not on Fridays').text, 'x')).toEqual({
      sentence: '第 2 步（fs.delete）被 PreToolUse 钩子拒绝',
      detail: 'not on Fridays',
    });
    expect(stepErrorParts('zh-CN', stepError(stepErrors.deniedByHook('PreToolUse hook: not on Fridays')))).toEqual({
      sentence: '被 PreToolUse 钩子拒绝',
      detail: 'not on Fridays',
    });
    expect(serverTextParts('zh-CN', stateReasons.control('cancel', 'queue drained').text, 'x')).toEqual({
      sentence: '',
      detail: 'queue drained',
    });
  });

  it('English readers get the server’s English exactly; an unknown code anywhere, or none, keeps the English', () => {
    const reason = stateReasons.stepFailed(step, 'EBUSY');
    expect(serverTextParts('en', reason.text, reason.reason)).toEqual({ sentence: reason.reason });
    const future: ServerText = { code: 'state.approvalNeeded', params: { summary: { code: 'preview.fromTheFuture', params: {} } } };
    expect(serverTextParts('zh-CN', future, 'approval needed: teleport')).toEqual({ sentence: 'approval needed: teleport' });
    expect(serverTextParts('zh-CN', undefined, 'resumed')).toEqual({ sentence: 'resumed' });
  });
});

describe('cron run reasons as codes', () => {
  it.each([
    [{ code: 'cron.overlapSkip', params: { task: 'tsk_1' } }, 'task tsk_1 of the previous run is still active (overlap policy: skip)'],
    [{ code: 'cron.missedSkip', params: {} }, 'missed while the runtime was down (missed-run policy: skip)'],
    [{ code: 'cron.missedRunOnce', params: {} }, 'missed while the runtime was down; covered by one run (missed-run policy: run_once)'],
  ])('%j reads as the scheduler wrote it, and in 简体中文', (text, english) => {
    expect(translateServerText('en', text, '(unknown code)')).toBe(english);
    expect(translateServerText('zh-CN', text, english)).not.toBe(english);
  });
});

describe('step errors in the runtime’s own words as codes', () => {
  it.each(
    Object.entries({
      deniedByPolicy: stepErrors.deniedByPolicy('delete asks by default', [{ code: 'policy.riskAsks', params: { risk: 'delete' } }]),
      deniedByUncodedPolicy: stepErrors.deniedByPolicy('the skill "notes" allows only fs.read', undefined),
      deniedByHook: stepErrors.deniedByHook('PreToolUse hook: deleting is off on Fridays'),
      denied: stepErrors.decided('denied', 'cli:alice', 'keep it'),
      cancelled: stepErrors.decided('cancelled', undefined, undefined),
      deniedByUser: stepErrors.deniedByUser('not now'),
      deniedNoReason: stepErrors.deniedByUser(undefined),
      failedByUser: stepErrors.failedByUser(),
      skippedByUser: stepErrors.skippedByUser(),
      interrupted: stepErrors.interruptedUncertain(),
      abortedCancelled: stepErrors.abortedCancelled(),
      abortedUncertain: stepErrors.abortedUncertain(),
      superseded: stepErrors.superseded(),
    }),
  )('%s: the English catalog reads as the recorded error', (_, reason) => {
    expect(translateServerText('en', reason.text, '(unknown code)')).toBe(reason.reason);
  });

  it('a coded error reads in 简体中文; a tool’s own error, or a code left from an earlier error, shows the recorded words verbatim', () => {
    const denied = stepError(stepErrors.decided('denied', 'cli:alice', 'keep it'));
    expect(stepErrorParts('zh-CN', denied)).toEqual({ sentence: '被 cli:alice 拒绝', detail: 'keep it' });
    expect(stepErrorParts('en', denied)).toEqual({ sentence: 'denied by cli:alice: keep it' });
    expect(stepErrorParts('zh-CN', { error: 'EACCES: permission denied' })).toEqual({ sentence: '', detail: 'EACCES: permission denied' });
    expect(stepErrorParts('zh-CN', { ...denied, error: 'timed out after 30000 ms' })).toEqual({
      sentence: '',
      detail: 'timed out after 30000 ms',
    });
    expect(stepErrorParts('zh-CN', {})).toBeUndefined();
  });
});
