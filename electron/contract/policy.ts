import { z } from 'zod';
import { ApprovalRuleSchema } from './approval.js';
import { ServerTextSchema } from './serverText.js';
import { RiskClassSchema } from './tool.js';

/** The gate's verdict for one tool call. */
export const PolicyEffectSchema = z.enum(['allow', 'ask', 'deny']);
/** A policy effect. */
export type PolicyEffect = z.infer<typeof PolicyEffectSchema>;

/**
 * Where a decision came from: a configured rule, a remembered approval, a default risk rule,
 * the task's agent (its tool allowlist), its policy profile (one the config does not define),
 * a skill in use (its `allowed-tools`), or a PreToolUse hook (which can only deny or ask, never
 * allow what the gate would not).
 */
export const PolicySourceSchema = z.enum(['rule', 'remembered', 'default', 'agent', 'profile', 'skill', 'hook']);

/** A policy decision, recorded on the step it gated. */
export const PolicyDecisionSchema = z.object({
  effect: PolicyEffectSchema,
  risks: z.array(RiskClassSchema),
  source: PolicySourceSchema,
  /** The rule text that matched, e.g. `fs.delete(logs/**)`. */
  rule: z.string().optional(),
  reason: z.string(),
  /** Each `; `-separated part of `reason` as a catalog code, when the default rules decided. */
  reasonTexts: z.array(ServerTextSchema).optional(),
  /** False for decisions that must be asked every time (payments). */
  rememberable: z.boolean(),
  /** The agent the task runs as, when it has one. */
  agent: z.string().optional(),
  /** The policy profile whose rules applied (absent: the default rules). */
  profile: z.string().optional(),
  /** Who must agree when it asks (`policy.approvals` for its risks); absent: one approver. */
  approvalRule: ApprovalRuleSchema.optional(),
  /** Checks the model provider attached to the call (OpenAI computer use): it asks, and they are acknowledged once approved. */
  safetyChecks: z.array(z.object({ id: z.string(), code: z.string(), message: z.string() })).optional(),
});
/** A policy decision. */
export type PolicyDecision = z.infer<typeof PolicyDecisionSchema>;

/** Rules in the familiar `Tool(pattern)` form, evaluated deny → ask → allow. */
export const PolicyRulesSchema = z
  .object({
    deny: z.array(z.string()).default([]),
    ask: z.array(z.string()).default([]),
    allow: z.array(z.string()).default([]),
  })
  .strict();
/** Configured policy rules. */
export type PolicyRules = z.infer<typeof PolicyRulesSchema>;

/** Policy configuration: rules plus the external_http host allowlist. */
export const PolicyConfigSchema = z
  .object({
    rules: PolicyRulesSchema.default({ deny: [], ask: [], allow: [] }),
    /** Hosts (globs, optional `:port`) that external_http may reach without asking. */
    networkAllow: z.array(z.string()).default([]),
    /**
     * Origins (`scheme://host[:port]`, globs: `http://127.0.0.1:*`) whose state-changing requests
     * from a task's browser pass the effect gate without asking. Payment-like requests still ask.
     */
    allowWrites: z.array(z.string()).default([]),
    /**
     * Named rule sets a task may use instead of `rules` (`task.policyProfile`, else its agent's
     * `policyProfile`); the defaults and `networkAllow` apply to every profile alike.
     */
    profiles: z.record(z.string().min(1).max(100), PolicyRulesSchema).default({}),
    /** Who decides each risk class and how many must agree, e.g. `{"payment": {"approvers": 2, "notOwner": true}}`. */
    approvals: z.partialRecord(RiskClassSchema, ApprovalRuleSchema).default({}),
  })
  .strict();
/** Policy configuration. */
export type PolicyConfig = z.infer<typeof PolicyConfigSchema>;
