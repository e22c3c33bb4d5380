import type { MethodParams, Task } from '../../../../electron/contract/index.js';

/** `tasks.create` params that run a finished task again: same goal or playbook, same options. */
export function rerunParams(task: Task): MethodParams<'tasks.create'> {
  const inputs = Object.fromEntries(
    Object.entries(task.inputs).filter(
      (entry): entry is [string, string | number | boolean] =>
        ['string', 'number', 'boolean'].includes(typeof entry[1]) && !String(entry[1]).startsWith('[secret:'),
    ),
  );
  const common = {
    title: task.title,
    ...(task.agent && { agent: task.agent }),
    ...(task.policyProfile && { policyProfile: task.policyProfile }),
    ...(task.sandbox && { sandbox: task.sandbox }),
  };
  const plan = task.plan;
  if (plan.kind === 'goal') {
    return {
      ...common,
      goal: plan.goal,
      ...(plan.model && { model: plan.model }),
      ...(plan.acceptance?.length && { checks: plan.acceptance }),
    };
  }
  return { ...common, playbook: { source: plan.source, baseDir: plan.baseDir }, inputs };
}
