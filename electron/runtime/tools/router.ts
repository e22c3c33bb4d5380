import {
  TIER_ORDER,
  type Issue,
  type Route,
  type RouteAttempt,
  type SandboxMode,
  type ServerText,
  type Tier,
} from '../../contract/index.js';
import { AgentDeskError, describeIssues, issuesFromZod } from '../errors.js';
import { FALLBACK_ARGS, fallbackArgs } from './capabilities.js';
import { availabilityOf, type ToolRegistry, type ToolUser } from './registry.js';
import type { AnyTool } from './types.js';

/** The task a route or an offer is for: its agent's allowlist, its workspace (fallback paths), its desktop. */
export type RouteTask = ToolUser & { workspace?: string; sandbox?: SandboxMode };

/** What a step asks the router for: a named tool, a capability, or both (the capability narrows fallbacks). */
export interface RouteRequest {
  tool?: string;
  capability?: string;
  args: Record<string, unknown>;
  /** The task asking: fallbacks are limited to tools it may use (its agent's allowlist). */
  task?: RouteTask;
}

/** A tool the engine may run, with the arguments its input schema parsed (defaults applied). */
export interface RouteCandidate {
  tool: AnyTool;
  args: unknown;
  reason: string;
  /** The reason as a catalog code, when it is one of the plain cases. */
  reasonText?: ServerText;
}

/** Why a candidate is in the plan: the English text, and its catalog code where there is one. */
type Reason = { reason: string; reasonText?: ServerText };

/** Candidates in the order to try them, and the tools passed over with why. */
export interface RoutePlan {
  candidates: RouteCandidate[];
  skipped: RouteAttempt[];
}

/** How one tool fared against the request before anything ran. */
type Evaluation = { tool: AnyTool; ok: true; args: unknown } | { tool: AnyTool; ok: false; attempt: RouteAttempt; issues: Issue[] };

/**
 * Chooses which tools can serve a step, best first: a named tool, then tools of lower tiers
 * sharing the capability the call exercises (api → mcp → browser → gui), given that
 * capability's own arguments. The engine tries candidates in order and moves to the next after
 * a retryable ToolError whose call cannot have had its effect.
 */
export class ToolRouter {
  /** Providers by capability set, for the registry revision they were read at: every step asks, tools change rarely. */
  private providers = new Map<string, AnyTool[]>();
  private providersRevision = -1;

  constructor(private readonly registry: ToolRegistry) {}

  /** The ordered candidates for a step; throws AgentDeskError when none can run it. */
  async plan(request: RouteRequest): Promise<RoutePlan> {
    const permit = request.task === undefined ? undefined : await this.registry.filterFor(request.task);
    if (request.tool !== undefined) return this.planNamed(request.tool, request, permit);
    if (request.capability !== undefined) return this.planCapability(request.capability, request.args, permit, request.task?.workspace);
    throw new AgentDeskError('invalid_params', 'a step must name a tool or a capability');
  }

  /**
   * Tools to offer a model: per capability, the available tools of its highest available tier
   * (a tool that is the only provider of something stays offered), plus any tier asked for. With
   * `task`, only tools that task may use (its agent's allowlist) are considered, so a permitted
   * lower-tier tool is offered where the best tier is not; a task with a desktop is offered the
   * gui tier too, a task with `sandbox: "none"` none of it.
   */
  async offer(options: { includeTiers?: readonly Tier[]; task?: RouteTask } = {}): Promise<AnyTool[]> {
    const permit = options.task === undefined ? undefined : await this.registry.filterFor(options.task);
    const sandbox = options.task?.sandbox;
    const available = this.registry
      .list()
      .filter((tool) => (permit?.(tool.name) ?? true) && !(sandbox === 'none' && tool.tier === 'gui') && availabilityOf(tool).available);
    const include = new Set<Tier>([...(options.includeTiers ?? []), ...(sandbox === 'desktop' ? (['gui'] as const) : [])]);
    const bestTier = new Map<string, number>();
    for (const tool of available) {
      for (const capability of tool.capabilities) {
        bestTier.set(capability, Math.min(bestTier.get(capability) ?? Infinity, tierRank(tool)));
      }
    }
    return available.filter(
      (tool) =>
        tool.capabilities.length === 0 ||
        include.has(tool.tier) ||
        tool.capabilities.some((capability) => bestTier.get(capability) === tierRank(tool)),
    );
  }

  /**
   * A named tool stays first even when not permitted, so the policy gate refuses it by name. Its
   * fallbacks: tools of lower tiers sharing a capability the call exercises, and only for a call
   * that is read-only or idempotent (a failure of any other may have had its effect).
   */
  private planNamed(name: string, request: RouteRequest, permit: Permit): RoutePlan {
    const named = this.registry.get(name);
    if (named === undefined) {
      throw new AgentDeskError('not_found', `unknown tool "${name}"`, {
        tool: name,
        known: this.registry.list().map((t) => t.name),
      });
    }
    const namedEvaluation = evaluate(named, request.args);
    const shared = request.capability !== undefined ? [request.capability] : fallbackCapabilities(named, namedEvaluation);
    // With no capability to fall back on, there is nothing to repeat elsewhere: skip classifying the call.
    const repeatable = shared.length === 0 || !namedEvaluation.ok || safeToRepeat(named, namedEvaluation.args, request.task?.workspace);
    const fallbacks = repeatable
      ? permitted(
          this.providersOf(shared).filter((tool) => tool !== named && tierRank(tool) > tierRank(named)),
          permit,
        )
      : [];
    // A tool of the tier below that does not take the capability's arguments is no fallback (the desktop's `computer` for a URL).
    const fallbackEvaluations = fallbacks
      .map((tool) => evaluate(tool, fallbackArgs(sharedCapability(tool, shared), request.args, request.task?.workspace)))
      .filter((e) => e.ok || e.attempt.outcome !== 'invalid_args');
    const evaluations = [namedEvaluation, ...fallbackEvaluations];
    const prefix = fallbackPrefix(namedEvaluation);
    const note = this.tierNote(named);
    const namedReason: Reason = {
      reason: `named in plan${note}`,
      ...(note === '' && { reasonText: { code: 'route.namedInPlan', params: {} } }),
    };
    return settle(evaluations, `"${name}"`, (tool) => {
      if (tool === named) return namedReason;
      const params = { first: named.name, tool: tool.name, capability: sharedCapability(tool, shared), tier: tool.tier };
      const reason = `${prefix}${params.tool} provides ${params.capability} (${params.tier} tier)`;
      return { reason, reasonText: { code: namedEvaluation.ok ? 'route.fallbackIf' : 'route.fallbackFor', params } };
    });
  }

  /** Why a named tool's tier serves its capability: the higher tiers that are unavailable now ('' when none). */
  private tierNote(named: AnyTool): string {
    for (const capability of named.capabilities) {
      const above = this.providersOf([capability]).filter((tool) => tierRank(tool) < tierRank(named));
      const down = above.map((tool) => ({ tool, availability: availabilityOf(tool) })).filter((a) => !a.availability.available);
      if (above.length === 0 || down.length < above.length) continue;
      const first = down[0]!;
      return `; ${capability} falls to the ${named.tier} tier: ${first.tool.name} is unavailable (${first.availability.reason ?? 'unavailable'})`;
    }
    return '';
  }

  private planCapability(capability: string, args: Record<string, unknown>, permit: Permit, workspace: string | undefined): RoutePlan {
    const all = this.providersOf([capability]).filter((tool) => exercises(tool, args, capability));
    if (all.length === 0) {
      throw new AgentDeskError('unavailable', `no tool provides capability "${capability}"`, { attempts: [] });
    }
    // Only tools the task may use; when it may use none, the best one goes on to be refused by the gate.
    const allowed = permitted(all, permit);
    const providers = allowed.length > 0 ? allowed : all;
    // settle() asks for reasons in candidate order, so the first call names the top choice.
    let firstChosen: AnyTool | undefined;
    // The step's arguments are written for the best tier; any other gets the capability's own fields of them.
    const argsFor = (tool: AnyTool) =>
      tool === all[0] || !(capability in FALLBACK_ARGS) ? args : fallbackArgs(capability, args, workspace);
    return settle(
      providers.map((tool) => evaluate(tool, argsFor(tool))),
      `capability "${capability}"`,
      (tool) => {
        if (firstChosen === undefined) {
          firstChosen = tool;
          return { reason: `highest available tier for ${capability}`, reasonText: { code: 'route.highestTier', params: { capability } } };
        }
        const params = { first: firstChosen.name, tool: tool.name, capability, tier: tool.tier };
        return {
          reason: `fallback if ${params.first} fails: ${params.tool} provides ${capability} (${params.tier} tier)`,
          reasonText: { code: 'route.fallbackIf', params },
        };
      },
    );
  }

  /** Tools providing any of the capabilities, by tier then name. */
  private providersOf(capabilities: readonly string[]): readonly AnyTool[] {
    if (capabilities.length === 0) return [];
    if (this.providersRevision !== this.registry.revision) {
      this.providers = new Map();
      this.providersRevision = this.registry.revision;
    }
    const key = capabilities.join('\n');
    let providers = this.providers.get(key);
    if (providers === undefined) {
      providers = this.registry
        .list()
        .filter((tool) => tool.capabilities.some((c) => capabilities.includes(c)))
        .sort((a, b) => tierRank(a) - tierRank(b));
      this.providers.set(key, providers);
    }
    return providers;
  }
}

/** Which tool names a task may use; undefined: all. */
type Permit = ((tool: string) => boolean) | undefined;

function permitted(tools: AnyTool[], permit: Permit): AnyTool[] {
  return permit === undefined ? tools : tools.filter((tool) => permit(tool.name));
}

/** The route record for a chosen candidate and the tools passed over before it. */
export function describeRoute(candidate: RouteCandidate, skipped: readonly RouteAttempt[]): Route {
  return {
    tool: candidate.tool.name,
    tier: candidate.tool.tier,
    reason: candidate.reason,
    ...(candidate.reasonText && { reasonText: candidate.reasonText }),
    attempts: [...skipped],
  };
}

function evaluate(tool: AnyTool, args: Record<string, unknown>): Evaluation {
  const availability = availabilityOf(tool);
  if (!availability.available) {
    const attempt: RouteAttempt = {
      tool: tool.name,
      tier: tool.tier,
      outcome: 'unavailable',
      detail: availability.reason ?? 'unavailable',
    };
    return { tool, ok: false, attempt, issues: [] };
  }
  let issues: Issue[];
  try {
    const parsed = tool.input.safeParse(args);
    if (parsed.success) return { tool, ok: true, args: parsed.data };
    issues = issuesFromZod(parsed.error.issues, ['args']);
  } catch (error) {
    issues = [{ path: 'args', message: `the input schema failed: ${(error as Error)?.message ?? String(error)}` }];
  }
  const attempt: RouteAttempt = { tool: tool.name, tier: tool.tier, outcome: 'invalid_args', detail: describeIssues(issues) };
  return { tool, ok: false, attempt, issues };
}

/** Splits evaluations into candidates and skips; when nothing can run, the first choice decides the error. */
function settle(evaluations: Evaluation[], what: string, reasonFor: (tool: AnyTool) => Reason): RoutePlan {
  const candidates: RouteCandidate[] = [];
  const skipped: RouteAttempt[] = [];
  for (const evaluation of evaluations) {
    if (evaluation.ok) candidates.push({ tool: evaluation.tool, args: evaluation.args, ...reasonFor(evaluation.tool) });
    else skipped.push(evaluation.attempt);
  }
  if (candidates.length > 0) return { candidates, skipped };

  const primary = evaluations[0];
  if (primary !== undefined && !primary.ok && primary.attempt.outcome === 'invalid_args') {
    throw new AgentDeskError('invalid_params', `invalid arguments for ${primary.tool.name}:\n${describeIssues(primary.issues)}`, {
      issues: primary.issues,
      attempts: skipped,
    });
  }
  const why = skipped.map(
    (a) => `${a.tool} ${a.outcome === 'unavailable' ? 'is unavailable' : 'rejected the arguments'} (${a.detail.replace(/\n/g, '; ')})`,
  );
  throw new AgentDeskError('unavailable', `no available tool for ${what}: ${why.join('; ')}`, { attempts: skipped });
}

function sharedCapability(tool: AnyTool, wanted: readonly string[]): string {
  return wanted.find((c) => tool.capabilities.includes(c)) ?? tool.capabilities[0] ?? '';
}

/**
 * The shared capabilities a named call can fall back on: those it exercises (an HTTP POST is no
 * `web.read`) that carry over to another tool (see FALLBACK_ARGS).
 */
function fallbackCapabilities(tool: AnyTool, evaluation: Evaluation): string[] {
  const exercised = evaluation.ok && tool.callCapabilities ? tool.callCapabilities(evaluation.args) : tool.capabilities;
  return exercised.filter((capability) => capability in FALLBACK_ARGS);
}

/** Whether a call with these arguments is one of the tool's `capability` calls. */
function exercises(tool: AnyTool, args: Record<string, unknown>, capability: string): boolean {
  if (!tool.callCapabilities) return true;
  const parsed = tool.input.safeParse(args);
  return !parsed.success || tool.callCapabilities(parsed.data).includes(capability);
}

/** A read-only or idempotent call may run again elsewhere after a failure; any other may have had its effect. */
function safeToRepeat(tool: AnyTool, args: unknown, workspace: string | undefined): boolean {
  try {
    const cls = tool.classify(args, { workspace: workspace ?? '' });
    return cls.readOnly || cls.idempotent;
  } catch {
    return tool.readOnly || tool.idempotent;
  }
}

function tierRank(tool: AnyTool): number {
  return TIER_ORDER.indexOf(tool.tier);
}

/** Why a fallback is there: the named tool could not run, or it may fail at run time. */
function fallbackPrefix(named: Evaluation): string {
  if (named.ok) return `fallback if ${named.tool.name} fails: `;
  const status = named.attempt.outcome === 'unavailable' ? 'unavailable' : 'rejected the arguments';
  return `fallback: ${named.tool.name} ${status}; `;
}
