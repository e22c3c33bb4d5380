import path from 'node:path';
import type { AgentRuntime } from '../agentRuntime.js';
import { AgentDeskError } from '../errors.js';
import { bindInputs, secretInputNames } from '../planning/playbook/inputs.js';
import { parsePlaybook, registryChecks } from '../planning/playbook/parse.js';
import { hasScope } from '../policy/scopes.js';
import { assertChecksPermitted } from '../verify/checkAdmission.js';
import type { ParsedParams, Scope } from '../../contract/index.js';
import type { TaskSpec } from '../engine/taskEngine.js';
import type { CallContext, Handlers } from './handlers.js';

type CreateParams = ParsedParams<'tasks.create'>;
type CreateOptions = Pick<TaskSpec, 'agent' | 'policyProfile' | 'sandbox' | 'workspace' | 'idempotency'>;

/** The options every task kind shares (the engine refuses an unknown agent or profile before storing anything). */
function taskOptions(p: CreateParams, ctx: CallContext): CreateOptions {
  return {
    ...(ctx.idempotency && { idempotency: { method: 'tasks.create', ...ctx.idempotency } }),
    ...(p.agent !== undefined && { agent: p.agent }),
    ...(p.policyProfile !== undefined && { policyProfile: p.policyProfile }),
    ...(p.sandbox !== undefined && { sandbox: p.sandbox }),
    ...(p.workspace !== undefined && { workspace: p.workspace }),
  };
}

function createPlaybookTask(rt: AgentRuntime, p: CreateParams, scopes: readonly Scope[], options: CreateOptions) {
  const source = p.playbook!.source;
  const playbook = parsePlaybook(source, registryChecks(rt.registry));
  // Services start local processes: only an admin may ask for that over RPC.
  if (playbook.services.length > 0 && !hasScope(scopes, 'operator.admin')) {
    throw new AgentDeskError('forbidden', 'playbooks with services start local processes and need operator.admin');
  }
  assertChecksPermitted(playbook.acceptance, scopes, 'tasks.create');
  const inputs = bindInputs(playbook, p.inputs);
  const task = rt.engine.create({
    title: p.title ?? playbook.name,
    plan: { kind: 'playbook', source, baseDir: path.resolve(p.playbook!.baseDir ?? rt.options.home) },
    inputs: inputs.values,
    secretNames: secretInputNames(playbook),
    budget: { ...rt.options.config.budget, ...playbook.budget, ...p.budget },
    ...options,
  });
  return { id: task.id, secrets: inputs.secrets };
}

function createGoalTask(rt: AgentRuntime, goal: string, p: CreateParams, options: CreateOptions) {
  const task = rt.engine.create({
    title: p.title ?? goal.slice(0, 80),
    plan: { kind: 'goal', goal, ...(p.model !== undefined && { model: p.model }), ...(p.checks !== undefined && { acceptance: p.checks }) },
    inputs: p.inputs,
    budget: { ...rt.options.config.budget, ...p.budget },
    ...options,
  });
  return { id: task.id, secrets: {} };
}

/** The method table's behaviour for the runtime core (tasks, approvals, traces, tools). */
export function coreHandlers(rt: AgentRuntime): Handlers {
  const { engine } = rt;
  return {
    'system.info': () => ({
      name: 'agent-desk',
      version: rt.options.version ?? '0.0.0',
      node: process.version,
      home: rt.options.home,
      pid: process.pid,
      startedAt: rt.startedAt,
      methods: rt.dispatcher.methods(),
    }),
    'tasks.create': (p, ctx) => {
      const options = taskOptions(p, ctx);
      assertChecksPermitted(p.checks ?? [], ctx.scopes, 'tasks.create');
      const task = p.goal !== undefined ? createGoalTask(rt, p.goal, p, options) : createPlaybookTask(rt, p, ctx.scopes, options);
      if (p.start) engine.start(task.id, { secrets: task.secrets });
      return engine.get(task.id);
    },
    'tasks.list': (p) => ({
      tasks: rt.store.tasks.list({ limit: p.limit, ...(p.state && { state: p.state }), ...(p.before && { before: p.before }) }),
    }),
    'tasks.get': (p) => ({ task: engine.get(p.taskId), steps: engine.steps(p.taskId), events: engine.events(p.taskId) }),
    'tasks.pause': (p) => engine.pause(p.taskId),
    'tasks.resume': (p) => engine.resume(p.taskId, p.resolution),
    'tasks.cancel': (p) => engine.cancel(p.taskId, p.reason),
    'tasks.message': (p) => ({ seq: engine.message(p.taskId, p.text) }),
    'approvals.list': (p) => ({
      approvals: rt.approvals.list({ ...(p.status && { status: p.status }), ...(p.taskId && { taskId: p.taskId }) }),
    }),
    'approvals.decide': (p, ctx) =>
      rt.approvals.decide(
        p.approvalId,
        { decision: p.decision, remember: p.remember, ...(p.reason !== undefined && { reason: p.reason }) },
        ctx.clientId,
      ),
    'traces.get': (p) => {
      engine.get(p.taskId);
      return rt.trace.page(p.taskId, p.afterSeq, p.limit);
    },
    'tools.catalog': () => ({ tools: rt.registry.descriptors() }),
  };
}
