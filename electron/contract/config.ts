import { z } from 'zod';
import { BudgetSchema } from './task.js';
import { PolicyConfigSchema } from './policy.js';

/** The config file (`$AGENT_DESK_HOME/config.json`): everything optional, defaults applied. */
export const ConfigSchema = z
  .object({
    policy: PolicyConfigSchema.default({ rules: { deny: [], ask: [], allow: [] }, networkAllow: [] }),
    budget: BudgetSchema.partial().default({}),
    gateway: z
      .object({
        host: z.string().default('127.0.0.1'),
        port: z.number().int().min(0).max(65535).default(7717),
      })
      .strict()
      .default({ host: '127.0.0.1', port: 7717 }),
    /** `FULL` also survives power loss, at some cost per step. */
    durability: z.enum(['NORMAL', 'FULL']).default('NORMAL'),
  })
  .strict();
/** The runtime configuration. */
export type Config = z.infer<typeof ConfigSchema>;
