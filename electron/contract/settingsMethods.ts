import { z } from 'zod';
import { ConfigSchema } from './config.js';
import type { MethodSpec } from './methodSpec.js';

const spec = <P extends z.ZodType, R extends z.ZodType>(s: MethodSpec<P, R>): MethodSpec<P, R> => s;

/** A secret's name: how config (`apiKeySecret`) and tools refer to it. */
export const SecretNameSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, ".", "_" and "-", starting with a letter or digit');

/**
 * A host a secret may be sent to as `${secret:name}`: `api.example.com` (any port),
 * `api.example.com:8443` (that port only), `*.example.com` (any subdomain), `[::1]:8080`.
 */
export const SecretHostSchema = z
  .string()
  .min(1)
  .max(260)
  .regex(
    /^(?:(?:\*\.)?[\p{L}\p{N}_-]+(?:\.[\p{L}\p{N}_-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/u,
    'a host name such as api.example.com, optionally *.-prefixed or with :port',
  );

/** A secret as listed: its name and the hosts it is bound to, never its value. */
export const SecretEntrySchema = z.object({ name: z.string(), hosts: z.array(z.string()) });
/** A listed secret. */
export type SecretEntry = z.infer<typeof SecretEntrySchema>;

/** The config's top-level sections, each replaced whole by `settings.set`. */
const ConfigPatchSchema = z
  .object(Object.fromEntries(Object.keys(ConfigSchema.shape).map((key) => [key, z.unknown()])))
  .partial()
  .strict();

/** Settings (the non-secret config file) and secrets (write-only values). */
export const SettingsMethods = {
  'settings.get': spec({
    params: z.object({}).strict().default({}),
    result: z.object({ config: ConfigSchema }),
    scope: 'operator.admin',
    sideEffect: false,
    description: 'The effective configuration (config.json with defaults applied). Holds no secret values.',
  }),
  'settings.set': spec({
    params: z.object({ config: ConfigPatchSchema }).strict(),
    result: z.object({
      config: ConfigSchema,
      /** When the saved settings take effect: `models`, `policy` and `memory` at the next task, no restart. */
      appliesTo: z.literal('next-task'),
      /** Saved sections (or fields) that only a restart of the runtime picks up; empty when none. */
      restartNeeded: z.array(z.string()),
    }),
    scope: 'operator.admin',
    sideEffect: true,
    description:
      'Replaces the given top-level config sections, validates the whole file and writes it atomically; returns the effective config. `models`, `policy` and `memory` apply to the next task (policy also to a running task’s next step) and `hooks` from the next event on, without a restart; `restartNeeded` names what was saved that applies at the next start. MCP servers change live through `mcp.servers.*`.',
  }),
  'secrets.set': spec({
    params: z
      .object({
        name: SecretNameSchema,
        value: z.string().min(4).max(65_536),
        /** Hosts `${secret:name}` may be sent to; omitted keeps the current ones, [] removes them. */
        hosts: z.array(SecretHostSchema).max(32).optional(),
      })
      .strict(),
    result: z.object({ name: z.string(), hosts: z.array(z.string()).optional() }),
    scope: 'operator.secrets',
    sideEffect: true,
    description:
      'Stores a secret (e.g. a provider key) and, with `hosts`, the hosts a tool call may send it to as `${secret:name}`. Its value is never returned by any method.',
  }),
  'secrets.list': spec({
    params: z.object({}).strict().default({}),
    result: z.object({ names: z.array(z.string()), secrets: z.array(SecretEntrySchema).optional() }),
    scope: 'operator.secrets',
    sideEffect: false,
    description: 'Names of the stored secrets and the hosts each is bound to (never their values).',
  }),
  'secrets.delete': spec({
    params: z.object({ name: SecretNameSchema }).strict(),
    result: z.object({ deleted: z.boolean() }),
    scope: 'operator.secrets',
    sideEffect: true,
    description: 'Deletes a stored secret.',
  }),
} as const;
