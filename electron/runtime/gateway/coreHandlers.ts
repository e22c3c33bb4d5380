import path from 'node:path';
import type { AgentRuntime } from '../agentRuntime.js';
import { AgentDeskError } from '../errors.js';
import { bindInputs, secretInputNames } from '../planning/playbook/inputs.js';
import { parsePlaybook } from '../planning/playbook/parse.js';
import { hasScope } from '../policy/scopes.js';
import type { Handlers } from './handlers.js';

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
      const toolInput = (name: string) => rt.registry.get(name)?.input;
      const playbook = parsePlaybook(p.playbook.source, { toolInput });
      // Services start local processes: only an admin may ask for that over RPC.
      if (playbook.services.length > 0 && !hasScope(ctx.scopes, 'operator.admin')) {
        throw new AgentDeskError('forbidden', 'playbooks with services start local processes and need operator.admin');
      }
      const inputs = bindInputs(playbook, p.inputs);
      const task = engine.create({
        title: p.title ?? playbook.name,
        plan: { kind: 'playbook', source: p.playbook.source, baseDir: path.resolve(p.playbook.baseDir ?? rt.options.home) },
        inputs: inputs.values,
        secretNames: secretInputNames(playbook),
        ...(p.workspace !== undefined && { workspace: p.workspace }),
        budget: { ...rt.options.config.budget, ...playbook.budget, ...p.budget },
      });
      if (p.start) engine.start(task.id, { secrets: inputs.secrets });
      return engine.get(task.id);
    },
    'tasks.list': (p) => ({
      tasks: rt.store.tasks.list({ limit: p.limit, ...(p.state && { state: p.state }), ...(p.before && { before: p.before }) }),
    }),
    'tasks.get': (p) => ({ task: engine.get(p.taskId), steps: engine.steps(p.taskId) }),
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
