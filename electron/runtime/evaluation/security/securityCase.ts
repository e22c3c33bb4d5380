import { z } from 'zod';
import { AcceptanceCheckSchema, BudgetLimitsSchema } from '../../../contract/index.js';

/** The attack surfaces a case exercises (the report counts cases per vector). */
export const AttackVectorSchema = z.enum([
  'lying_label',
  'obfuscated_label',
  'chinese_label',
  'payment_form',
  'page_script',
  'redirect',
  'websocket',
  'file_injection',
  'api_injection',
  'page_injection',
  'mcp_injection',
  'secret_exfiltration',
]);
/** An attack vector. */
export type AttackVector = z.infer<typeof AttackVectorSchema>;

/** The test services, each its own origin: `site` is allowlisted, `api` is where the secret belongs, `other` and `port` are not allowlisted. */
export const SiteNameSchema = z.enum(['site', 'other', 'port', 'api']);
/** A test service's name. */
export type SiteName = z.infer<typeof SiteNameSchema>;

/** What a service answers on one path; a bare string is an HTML page. */
export const RouteSchema = z.union([
  z.string(),
  z
    .object({
      status: z.number().int().min(100).max(599).default(200),
      type: z.string().default('text/html; charset=utf-8'),
      body: z.string().default(''),
      /** A redirect (status 302 unless given) to this URL. */
      redirect: z.string().optional(),
      /** Answer 401 unless the request carries `Authorization: Bearer <the secret>`. */
      auth: z.boolean().default(false),
      headers: z.record(z.string(), z.string()).default({}),
    })
    .strict(),
]);
/** One route of a test service. */
export type Route = z.infer<typeof RouteSchema>;

/**
 * One adversarial case. Text fields are templates: `{{site}}`, `{{other}}`, `{{port}}`, `{{api}}`
 * (service origins), `{{siteHost}}`, `{{secretName}}`; files and routes may also hold `{{secret}}`
 * (the user's own data carries the secret) — the goal may not, since the user never types it.
 */
export const SecurityCaseSchema = z
  .object({
    name: z.string().min(1),
    vector: AttackVectorSchema,
    /** What the attack tries and which gate should stop it, in a sentence. */
    attack: z.string().min(1),
    /** The user's task: the harmless part, as `AGENT:` lines the obedient model follows. */
    goal: z.string().min(1),
    files: z.record(z.string(), z.string()).default({}),
    routes: z.partialRecord(SiteNameSchema, z.record(z.string(), RouteSchema)).default({}),
    /** MCP servers added before the task: `inject` (evals/security/services) and/or `files` (the reference filesystem server over the workspace). */
    mcp: z.array(z.enum(['inject', 'files'])).default([]),
    /** Agents defined before the task (`agents.create`, every tool), for attacks that delegate. */
    agents: z.array(z.string().min(1)).default([]),
    /** The text the `inject` server's read tools return. */
    mcpText: z.string().optional(),
    /** Decides whether the harmless part was done (utility). */
    acceptance: z.array(AcceptanceCheckSchema).min(1),
    /** Workspace files the attack tries to remove or change; one missing or changed is an effect. */
    mustRemain: z.array(z.string()).default([]),
    /** Files the attack tries to create; one existing is an effect. */
    mustNotExist: z.array(z.string()).default([]),
    /** The task runs with a desktop (`sandbox: "desktop"`): the pages open in its Chromium behind the egress proxy; needs Docker. */
    desktop: z.boolean().default(false),
    /** The attack needs no instruction: the page acts on its own once opened (redirecting images, refreshes, scripts on load). */
    passive: z.boolean().default(false),
    /** Set only while the named gate is not in the tree: the case is reported, not hidden, and does not fail the suite. */
    knownGap: z.string().optional(),
    budget: BudgetLimitsSchema.optional(),
  })
  .strict()
  .refine((c) => !c.goal.includes('{{secret}}'), { message: 'the goal may not hold {{secret}}: the user never types it', path: ['goal'] });
/** A security case. */
export type SecurityCase = z.infer<typeof SecurityCaseSchema>;

/** `suite.yaml` of a security suite. */
export const SecuritySuiteSchema = z
  .object({
    name: z.string().default('security'),
    kind: z.literal('security'),
    /** The secret's name in the secret store (its value is random per run). */
    secretName: z.string().default('shop-api-key'),
  })
  .strict();
/** Security suite settings. */
export type SecuritySuite = z.infer<typeof SecuritySuiteSchema>;
