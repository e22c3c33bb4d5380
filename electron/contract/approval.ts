import { z } from 'zod';
import { ActorSchema, RoleSchema } from './people.js';
import { ServerTextSchema } from './serverText.js';
import { RiskClassSchema } from './tool.js';

/** How long an approval decision is remembered. `always` is refused for payments. */
export const RememberSchema = z.enum(['once', 'task', 'always']);
/** A remember scope. */
export type Remember = z.infer<typeof RememberSchema>;

/** Lifecycle of an approval request. */
export const ApprovalStatusSchema = z.enum(['pending', 'approved', 'denied', 'cancelled']);
/** An approval status. */
export type ApprovalStatus = z.infer<typeof ApprovalStatusSchema>;

/**
 * A state-changing request a page sent after an agent action, held before it left by the browser
 * effect gate or the desktop's egress proxy: what it would do, with secrets and card data masked.
 */
export const HeldEffectSchema = z.object({
  /** `request` (fetch/XHR/beacon), `form` (a form submission), `navigation` (main frame to another origin), `websocket` (a message). */
  kind: z.enum(['request', 'form', 'navigation', 'websocket']),
  /** HTTP method, `WS` for a WebSocket (a message, or on the desktop its opening), `CONNECT` for an HTTPS tunnel. */
  method: z.string(),
  url: z.string(),
  /** What the request does: `payment` when it looks like one (path, fields, payment host), else `write`, `delete` or `send`. */
  risk: RiskClassSchema,
  /** Why it was held, e.g. "POST to /pay", "field cvc". */
  reasons: z.array(z.string()),
  /** Form or JSON fields, sensitive values masked. */
  fields: z.record(z.string(), z.string()).optional(),
  /** The body when it has no fields (masked, truncated). */
  body: z.string().optional(),
});
/** A held effect. */
export type HeldEffect = z.infer<typeof HeldEffectSchema>;

/** What the user sees before deciding: the arguments and a human preview of the effect. */
export const ApprovalPreviewSchema = z.object({
  summary: z.string(),
  /** `summary` as a catalog code, for the tools that have one. */
  summaryText: ServerTextSchema.optional(),
  /** Message body, diff or request preview, already redacted. */
  body: z.string().optional(),
  /** Screenshot with the target marked (PNG, base64), for clicks. */
  screenshot: z.string().optional(),
  /** Requests the browser held for this step: approving lets exactly these through, once. */
  effects: z.array(HeldEffectSchema).optional(),
});
/** An approval preview. */
export type ApprovalPreview = z.infer<typeof ApprovalPreviewSchema>;

/**
 * Who may decide a class of action and how many must agree (`policy.approvals.payment`):
 * `{"approvers": 2, "notOwner": true}` is four eyes — not the task's owner, and two people.
 */
export const ApprovalRuleSchema = z
  .object({
    approvers: z.number().int().min(1).max(10).default(1).describe('How many different people must approve; one denial ends it.'),
    notOwner: z.boolean().default(false).describe('The task’s owner may not approve (they may still deny).'),
    roles: z
      .array(RoleSchema)
      .min(1)
      .default(['approver', 'admin'])
      .describe('Roles whose holders may decide (the gateway’s own token holds every role).'),
    groups: z
      .array(z.string().min(1).max(200))
      .optional()
      .describe('When set, a decider must also be in one of these identity-provider groups.'),
  })
  .strict();
/** An approval rule. */
export type ApprovalRule = z.infer<typeof ApprovalRuleSchema>;

/** The rule when policy names none: one approver, anyone who may approve. */
export const DEFAULT_APPROVAL_RULE: ApprovalRule = { approvers: 1, notOwner: false, roles: ['approver', 'admin'] };

/** One person's decision on an approval; with `approvers` > 1 it waits for more. */
export const ApprovalVoteSchema = z.object({
  by: ActorSchema,
  decision: z.enum(['approve', 'deny']),
  reason: z.string().optional(),
  at: z.string(),
  /** False once the voter was removed or lost the right to decide while the approval waited. */
  counted: z.boolean(),
});
/** A vote. */
export type ApprovalVote = z.infer<typeof ApprovalVoteSchema>;

/** A gated action waiting for (or having received) a human decision. */
export const ApprovalSchema = z.object({
  id: z.string(),
  taskId: z.string(),
  stepId: z.string(),
  tool: z.string(),
  args: z.unknown(),
  risks: z.array(RiskClassSchema),
  reason: z.string(),
  preview: ApprovalPreviewSchema,
  rememberable: z.boolean(),
  status: ApprovalStatusSchema,
  remember: RememberSchema.optional(),
  decisionReason: z.string().optional(),
  decidedBy: z.string().optional(),
  createdAt: z.string(),
  decidedAt: z.string().optional(),
  /** Who must agree (absent on approvals asked before rules: one approver). */
  rule: ApprovalRuleSchema.optional(),
  /** The task's owner when it was asked (so `notOwner` holds even if ownership is later changed). */
  owner: ActorSchema.optional(),
  /** Decisions so far, oldest first (absent: none yet). */
  votes: z.array(ApprovalVoteSchema).optional(),
});
/** An approval. */
export type Approval = z.infer<typeof ApprovalSchema>;

/** A decision on an approval. */
export const ApprovalDecisionSchema = z.object({
  decision: z.enum(['approve', 'deny']),
  remember: RememberSchema.default('once'),
  reason: z.string().max(2000).optional(),
});
/** An approval decision. */
export type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>;
