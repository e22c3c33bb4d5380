import type { AcceptanceCheck, Agent, Budget, Playbook, Scope } from '../../contract/index.js';
import type { TaskSpec } from '../engine/taskEngine.js';
import { AgentDeskError } from '../errors.js';
import { bindInputs, secretInputNames } from '../planning/playbook/inputs.js';
import { parsePlaybook, type ParsePlaybookOptions } from '../planning/playbook/parse.js';
import { hasScope } from '../policy/scopes.js';
import { assertChecksPermitted } from '../verify/checkAdmission.js';

// How a request becomes a task spec: the rules `TaskService` (taskService.ts), the one way a
// task comes to exist, applies for every caller.

/** What a task is made from: a playbook's text, or a goal for a model. */
export type TaskSource =
  | {
      kind: 'playbook';
      source: string;
      baseDir: string;
      /** For error locations. */
      file?: string;
      /** `source` already parsed by this service's `parseTaskPlaybook` (many tasks of one playbook). */
      parsed?: Playbook;
    }
  | { kind: 'goal'; goal: string; model?: string; checks?: readonly AcceptanceCheck[] };

/** Who asks for a task: an RPC or MCP client's scopes, or the local operator (CLI, cron of the local config). */
export type TaskRequester = { kind: 'client'; scopes: readonly Scope[]; method: string } | { kind: 'local' };

/** One request for a task. */
export interface TaskRequest {
  source: TaskSource;
  requester: TaskRequester;
  title?: string;
  /** Input values given by the caller (a playbook binds, coerces and checks them). */
  inputs?: Record<string, unknown>;
  /** Where secret inputs may come from besides `inputs` (`AGENT_DESK_INPUT_<NAME>`; the CLI's environment). */
  env?: Record<string, string | undefined>;
  /** Nobody is there to give secret inputs (queue, cron): a playbook that declares one is refused. */
  unattended?: string;
  /** The caller's own budget: over the agent's and the playbook's. */
  budget?: Partial<Budget>;
  agent?: string;
  policyProfile?: string;
  sandbox?: TaskSpec['sandbox'];
  workspace?: string;
  idempotency?: TaskSpec['idempotency'];
  owner?: TaskSpec['owner'];
}

/** What building a task needs: the configured budget, agents, and the playbook checks of the registry. */
export interface TaskServiceDeps {
  configBudget: Partial<Budget>;
  agent: (name: string) => Promise<Agent | undefined>;
  playbookChecks: () => Pick<ParsePlaybookOptions, 'toolInput' | 'capabilityKnown'>;
}

/** A task spec built from a request, without creating anything (cron validates jobs this way). */
export interface BuiltTask {
  spec: TaskSpec;
  /** Secret input values (never stored; handed to the run). */
  secrets: Record<string, string>;
  /** The acceptance checks the task carries (a goal's checks, a playbook's acceptance). */
  checks: readonly AcceptanceCheck[];
  startsServices: boolean;
}

/** Builds a task spec: parses and checks the playbook, binds inputs, merges budgets, applies admission rules. */
export async function buildTask(deps: TaskServiceDeps, request: TaskRequest): Promise<BuiltTask> {
  const agent = request.agent === undefined ? undefined : await deps.agent(request.agent);
  const options = sharedOptions(request);
  if (request.source.kind === 'goal') {
    const { goal, model, checks } = request.source;
    admit(request.requester, checks ?? [], false);
    return {
      spec: {
        title: request.title ?? goal.slice(0, 80),
        plan: { kind: 'goal', goal, ...(model !== undefined && { model }), ...(checks !== undefined && { acceptance: [...checks] }) },
        inputs: request.inputs ?? {},
        budget: mergeBudgets(deps.configBudget, agent?.budget, undefined, request.budget),
        ...options,
      },
      secrets: {},
      checks: checks ?? [],
      startsServices: false,
    };
  }
  const { source, baseDir, file } = request.source;
  const playbook = request.source.parsed ?? parseTaskPlaybook(deps, source, file);
  admit(request.requester, playbook.acceptance, playbook.services.length > 0);
  const secretNames = secretInputNames(playbook);
  if (request.unattended && secretNames.length > 0)
    throw new AgentDeskError(
      'invalid_params',
      `playbook "${playbook.name}" has secret inputs, which ${request.unattended} cannot supply unattended`,
    );
  const inputs = bindInputs(playbook, request.inputs ?? {}, request.env ?? {});
  return {
    spec: {
      title: request.title ?? playbook.name,
      plan: { kind: 'playbook', source, baseDir },
      playbook,
      inputs: inputs.values,
      secretNames,
      budget: mergeBudgets(deps.configBudget, agent?.budget, playbook.budget, request.budget),
      ...options,
    },
    secrets: inputs.secrets,
    checks: playbook.acceptance,
    startsServices: playbook.services.length > 0,
  };
}

/** Parses and validates a playbook against the registry's tools, as `buildTask` does. */
export function parseTaskPlaybook(deps: TaskServiceDeps, source: string, file?: string): Playbook {
  return parsePlaybook(source, { ...deps.playbookChecks(), ...(file !== undefined && { source: file }) });
}

/** Budgets, weakest first: the config's, the agent's, the playbook's, the caller's own. */
export function mergeBudgets(...layers: (Partial<Budget> | undefined)[]): Partial<Budget> {
  return Object.assign({}, ...layers.filter(Boolean));
}

function sharedOptions(request: TaskRequest): Pick<TaskSpec, 'agent' | 'policyProfile' | 'sandbox' | 'workspace' | 'idempotency' | 'owner'> {
  return {
    ...(request.agent !== undefined && { agent: request.agent }),
    ...(request.policyProfile !== undefined && { policyProfile: request.policyProfile }),
    ...(request.sandbox !== undefined && { sandbox: request.sandbox }),
    ...(request.workspace !== undefined && { workspace: request.workspace }),
    ...(request.idempotency !== undefined && { idempotency: request.idempotency }),
    ...(request.owner !== undefined && { owner: request.owner }),
  };
}

/** A client (not the local operator) needs operator.admin for what runs on the host: services and command checks. */
function admit(requester: TaskRequester, checks: readonly AcceptanceCheck[], startsServices: boolean): void {
  if (requester.kind === 'local') return;
  if (startsServices && !hasScope(requester.scopes, 'operator.admin'))
    throw new AgentDeskError('forbidden', 'playbooks with services start local processes and need operator.admin');
  assertChecksPermitted(checks, requester.scopes, requester.method);
}
