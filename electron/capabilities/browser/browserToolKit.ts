import { z } from 'zod';
import type { RiskClass } from '../../contract/index.js';
import { hostOfUrl } from '../../runtime/policy/subject.js';
import { CAPABILITIES } from '../../runtime/tools/capabilities.js';
import type { AnyTool, CallClassification, ToolContext } from '../../runtime/tools/types.js';
import type { BrowserHost } from './browserHost.js';
import type { BrowserSession, ElementTarget } from './browserSession.js';

/** Target fields every element action accepts: exactly one of ref, text, role (+ name), selector. */
export const targetFields = {
  ref: z
    .string()
    .regex(/^e\d+$/)
    .optional(),
  text: z.string().min(1).max(500).optional(),
  role: z.string().min(1).max(50).optional(),
  name: z.string().max(500).optional(),
  selector: z.string().min(1).max(1000).optional(),
};

/** Refines an object with target fields: one way of naming the element, and `name` only with `role`. */
export function oneTarget<T extends ElementTarget>(schema: z.ZodType<T>): z.ZodType<T> {
  return schema.refine((t) => [t.ref, t.text, t.role, t.selector].filter((v) => v !== undefined).length === 1, {
    message: 'name the element with exactly one of ref, text, role (+ name) or selector',
  });
}

/** The target part of an action's arguments. */
export function targetOf(args: ElementTarget): ElementTarget {
  const { ref, text, role, name, selector } = args;
  return Object.fromEntries(Object.entries({ ref, text, role, name, selector }).filter(([, v]) => v !== undefined));
}

/** How a target reads in previews and errors. */
export function describeTarget(t: ElementTarget): string {
  if (t.ref) return `ref ${t.ref}`;
  if (t.role) return `${t.role}${t.name !== undefined ? ` "${t.name}"` : ''}`;
  if (t.text) return `"${t.text}"`;
  return `selector ${t.selector}`;
}

/** What every browser action returns about the page afterwards. */
export interface PageState {
  url: string;
  title: string;
}

/** One browser action: its input, its default risk, and what it does on the task's session. */
export interface ActionSpec<I> {
  name: string;
  title: string;
  description: string;
  input: z.ZodType<I>;
  risk: RiskClass;
  readOnly: boolean;
  /** False for actions that leave the page as it was (no new page model needed). */
  changesPage: boolean;
  /** Shared capabilities it provides; default `web.interact` (the desktop's Chromium is the tier below). */
  capabilities?: string[];
  /**
   * True for actions on the page (click, fill, type, press, select): a state-changing request the
   * page sends meanwhile is held and turns the call into an approval of exactly that request.
   */
  gatesEffects?: boolean;
  classify?: (args: I, session: BrowserSession | undefined) => CallClassification;
  run(session: BrowserSession, args: I, ctx: ToolContext): Promise<Record<string, unknown>>;
}

/** Builds a tier-`browser` tool from an action spec, bound to the host's per-task sessions. */
export function browserTool<I>(host: BrowserHost, spec: ActionSpec<I>): AnyTool {
  return {
    name: `browser.${spec.name}`,
    title: spec.title,
    description: spec.description,
    tier: 'browser',
    capabilities: [...(spec.capabilities ?? [CAPABILITIES.webInteract])],
    risk: spec.risk,
    readOnly: spec.readOnly,
    idempotent: spec.readOnly,
    input: spec.input,
    classify: (args: I, ctx) => {
      const session = host.peek(ctx.workspace);
      return spec.classify?.(args, session) ?? defaultClassification(spec, session);
    },
    availability: () => {
      const problem = host.chromiumProblem();
      return problem ? { available: false, reason: problem } : { available: true };
    },
    execute: async (args: I, ctx) => {
      const session = await host.session(ctx.workspace);
      const result = spec.gatesEffects ? await runGated(session, spec, args, ctx) : await spec.run(session, args, ctx);
      if (spec.changesPage) await session.refresh();
      return { ...result, page: { url: session.page.url(), title: await session.page.title().catch(() => '') } };
    },
  };
}

/**
 * Runs a page action inside an effect-gate window: what the page sends until it goes quiet is
 * decided by the gate; anything held (aborted before it left) makes the call an EffectHeldError,
 * even when the action itself failed because of it.
 */
async function runGated<I>(session: BrowserSession, spec: ActionSpec<I>, args: I, ctx: ToolContext): Promise<Record<string, unknown>> {
  const target = targetOf(args as ElementTarget);
  session.actedOn = Object.keys(target).length > 0 ? session.findInModel(target)?.ref : undefined;
  session.effects.open(ctx.approved, session.pageOrigin());
  let outcome: { result: Record<string, unknown> } | { error: unknown };
  try {
    outcome = { result: await spec.run(session, args, ctx) };
    await session.settle();
  } catch (error) {
    outcome = { error };
  }
  const held = session.effects.close();
  const on = Object.keys(target).length > 0 ? ` ${describeTarget(target)}` : '';
  if (held.length > 0) throw await session.heldError(held, `${spec.name}${on}`);
  if ('error' in outcome) throw outcome.error;
  return outcome.result;
}

/** A classification on the task's own page: reads allowed, writes stay inside its isolated context. */
export function pageClassification(
  risk: RiskClass,
  readOnly: boolean,
  session: BrowserSession | undefined,
  summary: string,
  extra: Partial<CallClassification> = {},
): CallClassification {
  const url = session?.page.url() ?? '';
  const host = hostOfUrl(url);
  return {
    risks: [risk],
    subject: url,
    readOnly,
    idempotent: readOnly,
    // The effect stays in this task's own browser context, which no other task or profile shares.
    insideWorkspace: true,
    ...(host !== undefined && { host }),
    preview: { summary },
    ...extra,
  };
}

function defaultClassification<I>(spec: ActionSpec<I>, session: BrowserSession | undefined): CallClassification {
  return pageClassification(spec.risk, spec.readOnly, session, `${spec.title} on ${session?.page.url() ?? 'the task page'}`);
}
