import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openRuntime } from '../../../electron/capabilities/composition/openRuntime.js';
import { AgentDeskError } from '../../../electron/runtime/errors.js';
import { runEvalSuite, type OpenEvalRuntime } from '../../../electron/runtime/evaluation/evalRunner.js';
import { loadSuite } from '../../../electron/runtime/evaluation/loadSuite.js';
import { REPO_ROOT } from '../../support/cliSandbox.js';

const EVALS = path.join(REPO_ROOT, 'evals');
/** As `agent-desk eval` opens each task's runtime: the product's own composition. */
const open: OpenEvalRuntime = (home, model) => openRuntime('full', { home, model });

describe('evaluation suite (evals/, scripted models, real runtime)', () => {
  it('every task of the shipped suite ends as expected, with tokens, cost and approvals reported', async () => {
    const report = await runEvalSuite(EVALS, open);
    const unexpected = report.perTask.filter((t) => !t.passed).map((t) => `${t.name}: ${t.state} (${t.reason ?? ''})`);
    expect(unexpected).toEqual([]);
    expect(report.tasks).toBeGreaterThanOrEqual(20);
    expect(report.failureTypes).toMatchObject({
      malformed_calls: 1,
      model_gave_up: 1,
      acceptance_failed: 1,
      approval_denied: 1,
      tool_errors: 1,
    });
    for (const t of report.perTask) {
      expect(t.modelCalls).toBeGreaterThan(0);
      expect(t.promptTokens).toBeGreaterThan(0);
      expect(t.costUsd).toBeGreaterThan(0);
    }
    const byName = new Map(report.perTask.map((t) => [t.name, t]));
    expect(byName.get('delete-approved')!.approvalsAsked).toBe(1);
    expect(byName.get('repeated-read-from-cache')!.cacheHits).toBe(1);
    expect(byName.get('bad-json-then-fixed')!.malformedCalls).toBe(1);
    expect(byName.get('parallel-reads-merge')).toMatchObject({ steps: 3, modelCalls: 3 });
    // The stable prefix repeats from call to call, so later calls are mostly cached input.
    expect(report.totals.cachedPromptTokens / report.totals.promptTokens).toBeGreaterThan(0.3);
  });

  it('rejects a task file with a clear error naming the file and field', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-desk-evals-'));
    try {
      writeFileSync(path.join(dir, 'bad.yaml'), 'name: bad\ngoal: g\nscript: []\nacceptance: [{ type: file_exists }]\n');
      const error = (() => {
        try {
          loadSuite(dir);
        } catch (e) {
          return e;
        }
      })() as AgentDeskError;
      expect(error).toBeInstanceOf(AgentDeskError);
      expect(error.code).toBe('invalid_params');
      expect(error.message).toContain('bad.yaml');
      expect(error.message).toContain('acceptance[0]');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
