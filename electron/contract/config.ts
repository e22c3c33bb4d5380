import { z } from 'zod';
import { BudgetLimitsSchema } from './task.js';
import { PolicyConfigSchema } from './policy.js';
import { ModelsConfigSchema } from './modelsConfig.js';
import { HooksConfigSchema } from './hooks.js';

/** The config file (`$AGENT_DESK_HOME/config.json`): everything optional, defaults applied. */
export const ConfigSchema = z
  .object({
    policy: PolicyConfigSchema.default({ rules: { deny: [], ask: [], allow: [] }, networkAllow: [], allowWrites: [], profiles: {} }),
    budget: BudgetLimitsSchema.default({}),
    gateway: z
      .object({
        host: z.string().default('127.0.0.1'),
        port: z.number().int().min(0).max(65535).default(7717),
      })
      .strict()
      .default({ host: '127.0.0.1', port: 7717 }),
    /** Background queue and cron: how many queued tasks run at once, and how late a fire time may still count as on time. */
    scheduler: z
      .object({
        concurrency: z.number().int().min(1).max(64).default(4),
        missedGraceMs: z.number().int().min(0).default(60_000),
      })
      .strict()
      .default({ concurrency: 4, missedGraceMs: 60_000 }),
    /** Desktop sandboxes: ready containers kept warm, and an image to use instead of the built one. */
    sandbox: z
      .object({
        poolSize: z.number().int().min(0).max(16).default(0),
        image: z.string().optional(),
        /** Hosts (`host[:port]` globs) sandboxes may reach through the runtime's proxy; empty = network none. */
        egressAllow: z.array(z.string()).default([]),
        /** Live-view frames per second while a task holds a desktop (0 = only frames taken after actions). */
        liveFps: z.number().min(0).max(30).default(5),
        /** The desktop's screen; screenshots shown to a model may be smaller (the runtime scales). */
        screen: z
          .object({ width: z.number().int().min(320).max(7680), height: z.number().int().min(240).max(4320) })
          .strict()
          .default({ width: 1280, height: 800 }),
      })
      .strict()
      .default({ poolSize: 0, egressAllow: [], liveFps: 5, screen: { width: 1280, height: 800 } }),
    /** The host browser tier: a persistent profile folder (relative to the data folder) shared by tasks; absent = a fresh context per task. */
    browser: z
      .object({ profileDir: z.string().min(1).max(4096).optional() })
      .strict()
      .default({}),
    /**
     * Cross-session memory: with `inPrompt`, a goal task's model gets the notes of its own scopes
     * (its workspace, its agent) in its stable prefix. Off by default: notes then go to a model
     * provider only when a task searches them.
     */
    memory: z
      .object({ inPrompt: z.boolean().default(false) })
      .strict()
      .default({ inPrompt: false }),
    /** `FULL` also survives power loss, at some cost per step. */
    durability: z.enum(['NORMAL', 'FULL']).default('NORMAL'),
    /** Model providers (keys by secret name), the default model and the price table. */
    models: ModelsConfigSchema.default({ providers: {}, prices: {} }),
    /** Commands run at task events, in the shape of Claude Code hooks (docs/hooks.md). */
    hooks: HooksConfigSchema.default({}),
  })
  .strict();
/** The runtime configuration. */
export type Config = z.infer<typeof ConfigSchema>;
