import { z } from 'zod';
import { BudgetLimitsSchema } from './task.js';
import { PolicyConfigSchema } from './policy.js';
import { ModelsConfigSchema } from './modelsConfig.js';
import { HooksConfigSchema } from './hooks.js';
import { SpendBudgetsConfigSchema } from './spend.js';
import { SandboxConfigSchema } from './sandboxConfig.js';
import { AuthConfigSchema } from './authConfig.js';

/**
 * `"$schema"` at the top of a JSON config file: where an editor finds the file's JSON Schema
 * (`schema/*.schema.json`). Accepted and kept, never read by the runtime.
 */
export const SchemaRefSchema = z
  .string()
  .min(1)
  .describe('Where an editor finds this file’s JSON Schema (a path or URL); ignored by Agent Desk.');

/** What a PostgreSQL connection URL starts with. */
export const POSTGRES_URL_PATTERN = /^postgres(ql)?:\/\//;

/** The store's database: one SQLite file in the data folder, or a PostgreSQL database a team shares. */
export const StoreConfigSchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('sqlite').describe('`agent-desk.db` in the data folder (nothing to start).') }).strict(),
    z
      .object({
        kind: z.literal('postgres'),
        url: z
          .string()
          .regex(POSTGRES_URL_PATTERN, 'a postgres:// or postgresql:// URL')
          .describe('`postgres://user@host:port/database`; AGENT_DESK_DATABASE_URL, when set, is used instead.'),
        passwordSecret: z
          .string()
          .min(1)
          .optional()
          .describe('The name of a secret (`agent-desk secrets set NAME`) holding the password, so none is written here.'),
      })
      .strict(),
  ])
  .describe('The store’s database.');
/** Where the store keeps its data. */
export type StoreConfig = z.infer<typeof StoreConfigSchema>;

/** The sandbox section's schemas (hosts, runtime) are part of the config contract. */
export * from './sandboxConfig.js';

/**
 * The config file (`$AGENT_DESK_HOME/config.json`): everything optional, defaults applied.
 * Every object is strict: an unknown key anywhere is an error, not silently dropped.
 * Descriptions become the published JSON Schema's hover text (`agent-desk config schema`).
 */
export const ConfigSchema = z
  .object({
    $schema: SchemaRefSchema.optional(),
    policy: PolicyConfigSchema.default({
      rules: { deny: [], ask: [], allow: [] },
      networkAllow: [],
      allowWrites: [],
      profiles: {},
      approvals: {},
    }).describe('The policy gate: rules in the `Tool(pattern)` form (deny → ask → allow), host and origin allowlists, named profiles.'),
    budget: BudgetLimitsSchema.default({}).describe(
      'Default limits for every task (steps, tokens, cost, wall time); a task or playbook may set its own.',
    ),
    budgets: SpendBudgetsConfigSchema.default({}).describe(
      'Spend limits kept across every worker: per person per UTC day and per team per UTC month (dollars, tokens); reaching one pauses the task with a question to an approver.',
    ),
    gateway: z
      .object({
        host: z.string().default('127.0.0.1').describe('Interface `agent-desk serve` listens on.'),
        port: z.number().int().min(0).max(65535).default(7717).describe('Port `agent-desk serve` listens on (0 = any free port).'),
      })
      .strict()
      .default({ host: '127.0.0.1', port: 7717 })
      .describe('The headless gateway (`agent-desk serve`).'),
    scheduler: z
      .object({
        concurrency: z.number().int().min(1).max(64).default(4).describe('How many queued tasks run at once.'),
        missedGraceMs: z.number().int().min(0).default(60_000).describe('How late a cron fire time may still count as on time.'),
      })
      .strict()
      .default({ concurrency: 4, missedGraceMs: 60_000 })
      .describe('Background queue and cron.'),
    sandbox: SandboxConfigSchema,
    store: StoreConfigSchema.default({ kind: 'sqlite' }).describe(
      'Where tasks, approvals and traces are kept: the embedded SQLite file (default) or a shared PostgreSQL database.',
    ),
    browser: z
      .object({ profileDir: z.string().min(1).max(4096).optional().describe('Persistent profile folder, relative to the data folder.') })
      .strict()
      .default({})
      .describe('The host browser tier: a persistent profile shared by tasks; absent = a fresh context per task.'),
    // Off by default: notes then go to a model provider only when a task searches them.
    memory: z
      .object({
        inPrompt: z
          .boolean()
          .default(false)
          .describe('Give a goal task’s model the notes of its own scopes (workspace, agent) in its stable prefix.'),
      })
      .strict()
      .default({ inPrompt: false })
      .describe('Cross-session memory.'),
    telemetry: z
      .object({
        otlp: z
          .object({
            endpoint: z
              .string()
              .url()
              .optional()
              .describe(
                'The collector’s base URL (`/v1/traces` is appended), e.g. `http://127.0.0.1:4318`. OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT win.',
              ),
            headers: z
              .record(z.string(), z.string())
              .default({})
              .describe('Headers sent with every export; a value may name a stored secret (`Bearer ${secret:otel}`) so no key sits here.'),
            captureContent: z
              .boolean()
              .default(false)
              .describe('Export prompt, output, tool-argument and tool-result text (redacted); off: only names, ids, counts, states.'),
          })
          .strict()
          .default({ headers: {}, captureContent: false })
          .describe('OTLP/HTTP (JSON) export.'),
      })
      .strict()
      .default({ otlp: { headers: {}, captureContent: false } })
      .describe('OpenTelemetry traces following the GenAI semantic conventions; off unless an endpoint is named.'),
    durability: z
      .enum(['NORMAL', 'FULL'])
      .default('NORMAL')
      .describe('SQLite durability: `FULL` also survives power loss, at some cost per step.'),
    models: ModelsConfigSchema.default({ providers: {}, prices: {} }).describe(
      'Model providers (keys by secret name, never the key itself), the default model and the price table.',
    ),
    hooks: HooksConfigSchema.default({}).describe('Commands run at task events, in the shape of Claude Code hooks (docs/hooks.md).'),
    auth: AuthConfigSchema.default({}),
  })
  .strict();
/** The runtime configuration. */
export type Config = z.infer<typeof ConfigSchema>;
