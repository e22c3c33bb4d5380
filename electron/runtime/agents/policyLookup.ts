import type { AgentSpec } from '../../contract/index.js';
import type { AgentPolicy, TaskPolicyLookup, TaskPolicyOptions } from '../policy/taskPolicy.js';
import type { SqlSession } from '../store/sql/sqlPort.js';

/** Tasks whose agent and profile are remembered; past this the memo starts over. */
const TASK_MEMO_LIMIT = 10_000;

/**
 * The gate's view of tasks and agents. A task's agent and profile are fixed once it runs, so
 * they are read once per task and process; the agent definition is read at every decision (one
 * indexed point read), so an agent edited with `agents.update` — in this process or another —
 * governs its tasks from their next step on.
 */
export function agentPolicyLookup(sql: SqlSession): TaskPolicyLookup {
  const tasks = new Map<string, TaskPolicyOptions>();
  const agents = new Map<string, { spec: string; policy: AgentPolicy }>();
  const keep = (taskId: string, options: TaskPolicyOptions) => {
    if (tasks.size >= TASK_MEMO_LIMIT) tasks.clear();
    tasks.set(taskId, options);
  };
  return {
    remember: keep,
    async task(taskId): Promise<TaskPolicyOptions | undefined> {
      const known = tasks.get(taskId);
      if (known) return known;
      const row = await sql.get<{ agent: string | null; policy_profile: string | null }>(
        'SELECT agent, policy_profile FROM tasks WHERE id = ?',
        [taskId],
      );
      if (!row) return undefined;
      const options = {
        ...(row.agent !== null && { agent: row.agent }),
        ...(row.policy_profile !== null && { policyProfile: row.policy_profile }),
      };
      keep(taskId, options);
      return options;
    },
    async agent(name, within): Promise<AgentPolicy | undefined> {
      const row = await (within ?? sql).get<{ spec: string }>('SELECT spec FROM agents WHERE name = ?', [name]);
      if (!row) return undefined;
      // Parsed once per version of the definition: the same object lets the gate reuse its compiled allowlist.
      const known = agents.get(name);
      if (known?.spec === row.spec) return known.policy;
      const spec = JSON.parse(row.spec) as Pick<AgentSpec, 'tools' | 'policyProfile'>;
      const policy = { name, tools: spec.tools ?? ['*'], ...(spec.policyProfile !== undefined && { policyProfile: spec.policyProfile }) };
      agents.set(name, { spec: row.spec, policy });
      return policy;
    },
  };
}
