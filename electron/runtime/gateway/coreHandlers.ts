import path from 'node:path';
import { isoAt } from '../clock.js';
import type { RuntimeCore } from '../core/runtimeCore.js';
import { TaskQueueRepo } from '../store/taskQueueRepo.js';
import type { TaskRequest } from '../tasks/createTask.js';
import { defaultPlaybookBaseDir } from '../tasks/shippedExamples.js';
import type { ParsedParams } from '../../contract/index.js';
import { actorOf } from '../policy/approvalRules.js';
import { callerOf } from './caller.js';
import type { CallContext, Handlers } from './handlers.js';

type CreateParams = ParsedParams<'tasks.create'>;

/** `tasks.create` as a task request: a client's request, admitted by its scopes. */
function taskRequest(rt: Pick<RuntimeCore, 'home'>, p: CreateParams, ctx: CallContext): TaskRequest {
  const source: TaskRequest['source'] =
    p.goal !== undefined
      ? {
          kind: 'goal',
          goal: p.goal,
          ...(p.model !== undefined && { model: p.model }),
          ...(p.checks !== undefined && { checks: p.checks }),
        }
      : {
          kind: 'playbook',
          source: p.playbook!.source,
          baseDir: path.resolve(p.playbook!.baseDir ?? defaultPlaybookBaseDir(p.playbook!.source, rt.home)),
        };
  return {
    source,
    requester: { kind: 'client', scopes: ctx.scopes, method: 'tasks.create' },
    inputs: p.inputs,
    ...(p.title !== undefined && { title: p.title }),
    ...(p.budget !== undefined && { budget: p.budget }),
    ...(ctx.idempotency && { idempotency: { method: 'tasks.create', ...ctx.idempotency } }),
    ...(p.agent !== undefined && { agent: p.agent }),
    ...(p.policyProfile !== undefined && { policyProfile: p.policyProfile }),
    ...(p.sandbox !== undefined && { sandbox: p.sandbox }),
    ...(p.workspace !== undefined && { workspace: p.workspace }),
    owner: actorOf(callerOf(ctx)),
  };
}

/** The method table's behaviour for the runtime core (tasks, approvals, traces, tools). */
export function coreHandlers(
  rt: Pick<RuntimeCore, 'home' | 'engine' | 'tasks' | 'store' | 'approvals' | 'trace' | 'registry' | 'clock'>,
): Handlers {
  const { engine } = rt;
  return {
    'tasks.create': async (p, ctx) => {
      const built = await rt.tasks.build(taskRequest(rt, p, ctx));
      if (p.start) engine.assertCanHandOff({ secrets: built.secrets }); // refused before anything is stored
      if (engine.runsTasks) {
        // A run started here must not write into a transaction of its creator.
        const task = await rt.tasks.createBuilt(built.spec);
        if (p.start) await engine.start(task.id, { secrets: built.secrets });
        return engine.get(task.id);
      }
      // Handed to a worker, the task and its queue entry land together (a crash never strands it).
      const task = await rt.store.transaction(async (tx) => {
        const created = await rt.tasks.createBuilt(built.spec, tx);
        if (p.start) await new TaskQueueRepo(tx.sql).handOff(created.id, isoAt(rt.clock.now()));
        return created;
      });
      return engine.get(task.id);
    },
    'tasks.list': async (p) => ({
      tasks: await rt.store.tasks.list({ limit: p.limit, ...(p.state && { state: p.state }), ...(p.before && { before: p.before }) }),
    }),
    'tasks.get': async (p) => {
      const task = await engine.get(p.taskId); // unknown task → not_found
      return { task, steps: await engine.steps(p.taskId), events: await engine.events(p.taskId) };
    },
    'tasks.pause': (p) => engine.pause(p.taskId),
    'tasks.resume': (p) => engine.resume(p.taskId, p.resolution),
    'tasks.cancel': (p) => engine.cancel(p.taskId, p.reason),
    'tasks.message': async (p) => ({ seq: await engine.message(p.taskId, p.text) }),
    'approvals.list': async (p) => ({
      approvals: await rt.approvals.list({ ...(p.status && { status: p.status }), ...(p.taskId && { taskId: p.taskId }) }),
    }),
    'approvals.decide': (p, ctx) =>
      rt.approvals.decide(
        p.approvalId,
        { decision: p.decision, remember: p.remember, ...(p.reason !== undefined && { reason: p.reason }) },
        ctx.clientId,
        callerOf(ctx),
      ),
    'traces.get': async (p) => {
      await engine.get(p.taskId); // unknown task → not_found
      return rt.trace.page(p.taskId, p.afterSeq, p.limit);
    },
    'tools.catalog': () => ({ tools: rt.registry.descriptors() }),
  };
}
