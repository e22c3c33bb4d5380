import type { PolicyEffect, RiskClass, Scope, ServerText } from '../../contract/index.js';
import type { CallClassification } from '../tools/types.js';
import { type HostPattern, hostAllowed } from './hostPattern.js';
import { hasScope } from './scopes.js';
import { hostOfUrl } from './subject.js';

/** What the default risk rules need besides the call. */
export interface DefaultContext {
  /** Compiled `networkAllow` hosts. */
  networkAllow: readonly HostPattern[];
  /** Scopes of whoever the call acts for. */
  scopes: readonly Scope[];
}

/** The default verdict on one risk of a call. */
export interface RiskVerdict {
  risk: RiskClass;
  effect: PolicyEffect;
  reason: string;
  /** `reason` as a catalog code. */
  text: ServerText;
  /** True when no rule or remembered approval may relax it (payments, secrets without scope). */
  binding: boolean;
}

/** The default decision on a whole call: the most restrictive verdict among its risks. */
export interface DefaultDecision {
  effect: PolicyEffect;
  /** The reasons of the risks that decided, e.g. "delete asks by default". */
  reason: string;
  /** Each part of `reason` as a catalog code. */
  texts: ServerText[];
  /** True when a binding verdict is among the risks, so rules and grants must not skip it. */
  binding: boolean;
}

const SEVERITY: Readonly<Record<PolicyEffect, number>> = { allow: 0, ask: 1, deny: 2 };

/** Applies the default risk rules (docs/architecture.md, "Security at the edges") to a classified call. */
export function defaultDecision(classification: CallClassification, ctx: DefaultContext): DefaultDecision {
  const verdicts = classification.risks.map((risk) => riskVerdict(risk, classification, ctx));
  // A call with no risk class is a classification gap; asking is the safe answer.
  if (verdicts.length === 0)
    return { effect: 'ask', reason: 'the call has no risk class, so it asks', texts: [text('policy.noRiskClass')], binding: false };
  const effect = verdicts.reduce<PolicyEffect>((worst, v) => (SEVERITY[v.effect] > SEVERITY[worst] ? v.effect : worst), 'allow');
  const deciding = [...new Map(verdicts.filter((v) => v.effect === effect).map((v) => [v.reason, v.text])).entries()];
  return {
    effect,
    reason: deciding.map(([reason]) => reason).join('; '),
    texts: deciding.map(([, t]) => t),
    binding: verdicts.some((v) => v.binding),
  };
}

/** The default verdict on a single risk of a call. */
export function riskVerdict(risk: RiskClass, classification: CallClassification, ctx: DefaultContext): RiskVerdict {
  const verdict = (effect: PolicyEffect, reason: string, code: ServerText, binding = false): RiskVerdict => ({
    risk,
    effect,
    reason,
    text: code,
    binding,
  });
  const asks = (what: RiskClass) => verdict('ask', `${what} asks by default`, text('policy.riskAsks', { risk: what }));
  switch (risk) {
    case 'read':
      return verdict('allow', 'read is allowed by default', text('policy.readAllowed'));
    case 'write':
      return classification.insideWorkspace
        ? verdict('allow', 'write inside the task workspace is allowed by default', text('policy.writeInsideAllowed'))
        : verdict('ask', 'write outside the task workspace asks by default', text('policy.writeOutsideAsks'));
    case 'payment':
      return verdict('ask', 'payment asks every time', text('policy.paymentAsksEveryTime'), true);
    case 'external_http':
      return networkVerdict(classification, ctx, verdict);
    case 'secrets':
      return hasScope(ctx.scopes, 'operator.secrets')
        ? asks('secrets')
        : verdict('deny', 'secrets is denied without the operator.secrets scope', text('policy.secretsNeedScope'), true);
    case 'delete':
    case 'send':
    case 'exec':
      return asks(risk);
  }
}

function networkVerdict(
  classification: CallClassification,
  ctx: DefaultContext,
  verdict: (effect: PolicyEffect, reason: string, code: ServerText) => RiskVerdict,
): RiskVerdict {
  const host = classification.host ?? hostOfUrl(classification.subject);
  if (host === undefined) return verdict('ask', 'external_http to an unknown host asks by default', text('policy.httpUnknownHostAsks'));
  return hostAllowed(ctx.networkAllow, host)
    ? verdict('allow', `external_http to ${host} is allowed by networkAllow`, text('policy.httpHostAllowed', { host }))
    : verdict('ask', `external_http to ${host} asks by default (not in networkAllow)`, text('policy.httpHostAsks', { host }));
}

/** A catalog code with its parameters. */
function text(code: string, params: Record<string, string> = {}): ServerText {
  return { code, params };
}
