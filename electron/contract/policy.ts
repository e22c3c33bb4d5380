import { z } from 'zod';
import { RiskClassSchema } from './tool.js';

/** The gate's verdict for one tool call. */
export const PolicyEffectSchema = z.enum(['allow', 'ask', 'deny']);
/** A policy effect. */
export type PolicyEffect = z.infer<typeof PolicyEffectSchema>;

/** Where a decision came from: a configured rule, a remembered approval, or a default risk rule. */
export const PolicySourceSchema = z.enum(['rule', 'remembered', 'default']);

/** A policy decision, recorded on the step it gated. */
export const PolicyDecisionSchema = z.object({
  effect: PolicyEffectSchema,
  risks: z.array(RiskClassSchema),
  source: PolicySourceSchema,
  /** The rule text that matched, e.g. `fs.delete(logs/**)`. */
  rule: z.string().optional(),
  reason: z.string(),
  /** False for decisions that must be asked every time (payments). */
  rememberable: z.boolean(),
});
/** A policy decision. */
export type PolicyDecision = z.infer<typeof PolicyDecisionSchema>;

/** Rules in the familiar `Tool(pattern)` form, evaluated deny → ask → allow. */
export const PolicyRulesSchema = z.object({
  deny: z.array(z.string()).default([]),
  ask: z.array(z.string()).default([]),
  allow: z.array(z.string()).default([]),
});
/** Configured policy rules. */
export type PolicyRules = z.infer<typeof PolicyRulesSchema>;

/** Policy configuration: rules plus the external_http host allowlist. */
export const PolicyConfigSchema = z.object({
  rules: PolicyRulesSchema.default({ deny: [], ask: [], allow: [] }),
  /** Hosts (globs, optional `:port`) that external_http may reach without asking. */
  networkAllow: z.array(z.string()).default([]),
});
/** Policy configuration. */
export type PolicyConfig = z.infer<typeof PolicyConfigSchema>;
