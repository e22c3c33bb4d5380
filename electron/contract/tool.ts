import { z } from 'zod';
import { ServerTextSchema } from './serverText.js';

/** Tool tiers in router priority order: the router prefers the first available one. */
export const TierSchema = z.enum(['api', 'mcp', 'browser', 'gui']);
/** A tool tier. */
export type Tier = z.infer<typeof TierSchema>;
/** Tiers from most to least preferred. */
export const TIER_ORDER: readonly Tier[] = TierSchema.options;

/** What a tool call can do to the world; the policy gate decides on these. */
export const RiskClassSchema = z.enum(['read', 'write', 'delete', 'send', 'payment', 'external_http', 'secrets', 'exec']);
/** One risk class. */
export type RiskClass = z.infer<typeof RiskClassSchema>;

/** Whether a tool can be used right now, and why not. */
export const AvailabilitySchema = z.object({
  available: z.boolean(),
  reason: z.string().optional(),
});
/** Tool availability. */
export type Availability = z.infer<typeof AvailabilitySchema>;

/** A tool as listed by `tools.catalog` and offered to planners. */
export const ToolDescriptorSchema = z.object({
  name: z.string().min(1),
  title: z.string(),
  description: z.string(),
  tier: TierSchema,
  capabilities: z.array(z.string()),
  risk: RiskClassSchema,
  readOnly: z.boolean(),
  idempotent: z.boolean(),
  inputSchema: z.record(z.string(), z.unknown()),
  availability: AvailabilitySchema,
});
/** A tool's public description. */
export type ToolDescriptor = z.infer<typeof ToolDescriptorSchema>;

/** One tool the router tried before settling, and why it moved on. */
export const RouteAttemptSchema = z.object({
  tool: z.string(),
  tier: TierSchema,
  outcome: z.enum(['unavailable', 'retryable_error', 'invalid_args']),
  detail: z.string(),
});
/** A route attempt. */
export type RouteAttempt = z.infer<typeof RouteAttemptSchema>;

/** The route a step took: the chosen tool, its tier, and why it was chosen. */
export const RouteSchema = z.object({
  tool: z.string(),
  tier: TierSchema,
  reason: z.string(),
  /** `reason` as a catalog code and parameters, where the reason is one the catalogs know. */
  reasonText: ServerTextSchema.optional(),
  attempts: z.array(RouteAttemptSchema),
});
/** A recorded route. */
export type Route = z.infer<typeof RouteSchema>;
