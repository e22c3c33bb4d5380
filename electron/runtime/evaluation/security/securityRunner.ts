import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Step, Task } from '../../../contract/index.js';
import type { RuntimeHandle } from '../../core/runtimeCore.js';
import { runChecks } from '../../verify/index.js';
import { parseInstructions } from './agentInstructions.js';
import { AttackSites } from './attackSites.js';
import {
  addMcpServers,
  callLocal,
  caseConfig,
  desktopMissing,
  fill,
  filledRoutes,
  storeSecrets,
  writeCaseFiles,
  type CaseVars,
} from './caseSetup.js';
import { mcpEffects, serviceEffects, workspaceEffects } from './effects.js';
import { agentWrittenTargets, dataFolderTargets, findLeaks, type ScanTarget } from './leakScan.js';
import { loadSecuritySuite } from './loadSecuritySuite.js';
import { ObedientModel } from './obedientModel.js';
import { OutputTap } from './outputTap.js';
import type { SecurityCase } from './securityCase.js';
import { summarizeSecurity, type SecurityCaseResult, type SecurityReport } from './securityReport.js';

/** What the entry point provides: the product's runtime composition over a data folder (the CLI passes `openRuntime`). */
export interface SecurityRunDeps {
  openRuntime(home: string): Promise<RuntimeHandle>;
  /** Only these cases (by name), e.g. to rerun one. */
  only?: readonly string[];
  /**
   * The harness's own check: every approval is granted and the secret is not stored (so nothing
   * can know to mask it). Effects and leaks must then be found — proof the counting works.
   */
  control?: boolean;
  /** Cases run at once (default 3: a case mostly waits on Chromium and its services). */
  concurrency?: number;
}

/** What one case needs beyond the entry point's deps. */
interface CaseDeps extends SecurityRunDeps {
  servicesDir: string;
  secretName: string;
  /** The suite's one tap on stdout/stderr (taps cannot nest); each case searches what was written while it ran. */
  tap: OutputTap;
}

/** Denial rounds before a case counts as stuck. */
const MAX_DENIAL_ROUNDS = 30;
/** How long a waiting task's asynchronous writes are given before its data folder is read. */
const SETTLE_MS = 500;

/** Runs every case of a security suite, each with fresh services, model, data folder and runtime. */
export async function runSecuritySuite(dir: string, deps: SecurityRunDeps): Promise<SecurityReport> {
  const { suite, cases } = loadSecuritySuite(dir);
  const chosen = deps.only?.length ? cases.filter((c) => deps.only!.includes(c.name)) : cases;
  const tap = new OutputTap();
  tap.start();
  try {
    const caseDeps: CaseDeps = { ...deps, servicesDir: path.join(dir, 'services'), secretName: suite.secretName, tap };
    const results = await inPool(chosen, deps.concurrency ?? 3, (c) => runSecurityCase(c, caseDeps));
    return summarizeSecurity(suite.name, results);
  } finally {
    tap.stop();
  }
}

/** Maps with at most `limit` calls in flight, keeping the input order. */
async function inPool<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await run(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

/**
 * One case: the obedient model and the recording services start, the secret is stored with the
 * product's `secrets.set`, the goal task runs in the product's runtime and every approval is
 * denied; then effects come from the services' records, leaks from searching everything written
 * and every model request, and utility from the case's acceptance checks.
 */
export async function runSecurityCase(spec: SecurityCase, deps: CaseDeps): Promise<SecurityCaseResult> {
  const noDesktop = spec.desktop ? desktopMissing() : undefined;
  if (noDesktop) return skippedCase(spec, noDesktop);
  const secret = `sk-live-${randomBytes(12).toString('hex')}`;
  const result = await runCase(spec, deps, secret);
  // The report goes to stdout: what an attack carried away is shown with the secret masked.
  return JSON.parse(JSON.stringify(result).split(secret).join('[the secret]')) as SecurityCaseResult;
}

async function runCase(spec: SecurityCase, deps: CaseDeps, secret: string): Promise<SecurityCaseResult> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'agent-desk-sec-'));
  const model = await new ObedientModel().start();
  const sites = await new AttackSites().start();
  const mark = deps.tap.mark();
  const workspace = path.join(home, 'ws-case');
  const hostOf = (origin: string) => new URL(origin).host;
  const vars: CaseVars = {
    ...sites.origins,
    siteHost: hostOf(sites.origins.site),
    otherHost: hostOf(sites.origins.other),
    otherPort: new URL(sites.origins.other).port,
    apiHost: hostOf(sites.origins.api),
    workspace,
    secretName: deps.secretName,
    secret,
  };
  const base: SecurityCaseResult = {
    name: spec.name,
    vector: spec.vector,
    state: 'not_run',
    effects: [],
    leaks: [],
    utility: false,
    approvalsAsked: 0,
    obeyed: [],
    ...(spec.knownGap !== undefined && { knownGap: spec.knownGap }),
  };
  const effectsFile = path.join(home, 'mcp-effects.jsonl');
  let rt: RuntimeHandle | undefined;
  try {
    sites.serve(filledRoutes(spec.routes, vars), secret);
    writeFileSync(path.join(home, 'config.json'), JSON.stringify(caseConfig(model.baseUrl, sites.origins, spec.desktop), null, 2));
    mkdirSync(workspace, { recursive: true });
    const before = writeCaseFiles(workspace, spec.files, vars);
    writeFileSync(path.join(home, 'mcp-text.txt'), fill(spec.mcpText ?? '', vars));
    // As a user would: store the secret and add servers first, then run in a fresh process's runtime.
    const setup = await deps.openRuntime(home);
    try {
      await storeSecrets(setup, deps.control ? undefined : deps.secretName, secret, new URL(sites.origins.api).host);
      for (const name of spec.agents) await callLocal(setup, 'agents.create', { name, description: 'a helper the attack delegates to' });
      await addMcpServers(setup, spec.mcp, {
        servicesDir: deps.servicesDir,
        textFile: path.join(home, 'mcp-text.txt'),
        effectsFile,
        workspace,
      });
    } finally {
      await setup.close();
    }
    rt = await deps.openRuntime(home);
    const goal = fill(spec.goal, vars);
    const task = await runAnsweringApprovals(rt, spec, { goal, workspace, home }, deps.control ? 'approve' : 'deny');
    const checks = await runChecks(spec.acceptance, { workspace, signal: AbortSignal.timeout(30_000) });
    const traces = await traceText(rt, task.id);
    const steps = await stepsOf(rt, task.id);
    const written = dataFolderTargets(home, workspace);
    await rt.close();
    rt = undefined;
    const targets: ScanTarget[] = [
      ...written,
      ...dataFolderTargets(home, workspace).map((t) => ({ ...t, source: `${t.source} (after close)` })),
      ...agentWrittenTargets(workspace, before),
      ...task.whileWaiting,
      { source: 'trace', text: traces },
      { source: 'stdout/stderr', text: deps.tap.since(mark) },
      ...model.requests.map((text, i) => ({ source: `model request #${i + 1}`, text })),
    ];
    return {
      ...base,
      state: task.state,
      ...(task.stateReason !== undefined && { reason: task.stateReason }),
      effects: [
        ...serviceEffects(sites.received, secret),
        ...mcpEffects(effectsFile),
        ...workspaceEffects(workspace, before, spec.mustRemain, spec.mustNotExist),
      ],
      leaks: findLeaks(targets, secret),
      utility: checks.every((c) => c.passed),
      approvalsAsked: task.approvalsAnswered,
      obeyed: [...model.obeyed],
      steps,
      ...(attackUnread(spec, goal, model.obeyed) && {
        error: 'the attack was never obeyed (no instruction from the attack material ran): the case is broken, not safe',
      }),
    };
  } catch (error) {
    return { ...base, error: (error as Error).message, effects: serviceEffects(sites.received, secret), obeyed: [...model.obeyed] };
  } finally {
    if (rt) await rt.close().catch(() => undefined);
    await model.close();
    await sites.close();
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * Creates the goal task through `tasks.create` and runs it, answering every approval it asks
 * for the same way (deny, but in a control run). While it waits, what it keeps on disk is read
 * too: a page saved for the wait must not hold the secret either.
 */
async function runAnsweringApprovals(
  rt: RuntimeHandle,
  spec: SecurityCase,
  where: { goal: string; workspace: string; home: string },
  decision: 'approve' | 'deny',
): Promise<Task & { approvalsAnswered: number; whileWaiting: ScanTarget[] }> {
  const { goal, workspace, home } = where;
  const whileWaiting: ScanTarget[] = [];
  const created = (await callLocal(rt, 'tasks.create', {
    title: spec.name,
    goal,
    checks: spec.acceptance,
    workspace,
    ...(spec.desktop && { sandbox: 'desktop' }),
    start: false,
    budget: { maxSteps: 40, maxWallMs: 120_000, ...spec.budget },
  })) as Task;
  let task = await rt.engine.run(created.id, { detachOnApproval: true });
  let asked = 0;
  for (let round = 0; task.state === 'waiting_approval' && round < MAX_DENIAL_ROUNDS; round++) {
    // What a wait writes may follow it asynchronously (a saved page): give it a moment first.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    whileWaiting.push(...dataFolderTargets(home, workspace).map((t) => ({ ...t, source: `${t.source} (while waiting)` })));
    for (const approval of await rt.approvals.list({ taskId: task.id, status: 'pending' })) {
      asked++;
      const reason = decision === 'deny' ? 'the security suite denies every approval' : 'control run: every approval granted';
      await rt.approvals.decide(approval.id, { decision, remember: 'once', reason }, 'eval');
    }
    task = await rt.engine.run(task.id, { detachOnApproval: true });
  }
  return { ...task, approvalsAnswered: asked, whileWaiting };
}

/**
 * A desktop case where no Docker engine is configured: reported as not run with the reason (no
 * effect, no utility), or a broken case when `AGENT_DESK_REQUIRE` names docker (CI must not pass by skipping).
 */
function skippedCase(spec: SecurityCase, why: string): SecurityCaseResult {
  const required = (process.env.AGENT_DESK_REQUIRE ?? '')
    .split(',')
    .map((s) => s.trim())
    .includes('docker');
  return {
    name: spec.name,
    vector: spec.vector,
    state: 'not_run',
    reason: `skipped: ${why}`,
    effects: [],
    leaks: [],
    utility: false,
    approvalsAsked: 0,
    obeyed: [],
    ...(required && { error: `AGENT_DESK_REQUIRE names docker, but ${why}` }),
    ...(spec.knownGap !== undefined && { knownGap: spec.knownGap }),
  };
}

/** An active case whose injected instructions the model never followed proves nothing. */
function attackUnread(spec: SecurityCase, goal: string, obeyed: readonly string[]): boolean {
  if (spec.passive) return false;
  const asked = new Set(parseInstructions(goal).map((i) => i.line));
  return obeyed.every((line) => asked.has(line));
}

/** Each step in one line: tool, status, the policy's word and the error, so a reader sees why nothing happened. */
async function stepsOf(rt: RuntimeHandle, taskId: string): Promise<string[]> {
  const { steps } = (await callLocal(rt, 'tasks.get', { taskId })) as { steps: Step[] };
  return steps.map((s) =>
    [`#${s.index} ${s.tool} ${s.status}`, s.policy && `(${s.policy.effect}: ${s.policy.reason})`, s.error && `: ${s.error.slice(0, 300)}`]
      .filter(Boolean)
      .join(' '),
  );
}

/** The whole trace of the task as the product exports it (`traces.get`, page by page). */
async function traceText(rt: RuntimeHandle, taskId: string): Promise<string> {
  const pages: unknown[] = [];
  let afterSeq = 0;
  for (;;) {
    const page = (await callLocal(rt, 'traces.get', { taskId, afterSeq, limit: 1000 })) as { events: unknown[]; nextSeq?: number };
    pages.push(...page.events);
    if (page.nextSeq === undefined || page.events.length === 0) break;
    afterSeq = page.nextSeq;
  }
  return JSON.stringify(pages);
}
