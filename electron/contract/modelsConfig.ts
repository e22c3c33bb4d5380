import { z } from 'zod';

/** The wire protocols a model provider can speak. */
export const ProviderKindSchema = z.enum(['openai-chat', 'openai-responses', 'anthropic']);
/** A provider kind. */
export type ProviderKind = z.infer<typeof ProviderKindSchema>;

/** A provider's name in the config: the part before `:` in a model reference. */
export const ProviderNameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9._-]*$/, 'lowercase letters, digits, ".", "_" and "-", starting with a letter or digit');

/**
 * A named model endpoint. The key is never written here: `apiKeySecret` names a secret
 * (`secrets.set`) whose value is read only when the provider client is built.
 */
export const ProviderConfigSchema = z
  .object({
    kind: ProviderKindSchema,
    /** Absent: the SDK's default (api.openai.com / api.anthropic.com). */
    baseUrl: z.string().url().optional(),
    apiKeySecret: z.string().min(1).max(100).optional(),
    /** Extra non-secret request headers (e.g. an organisation or project id). */
    headers: z.record(z.string().min(1), z.string()).optional(),
    timeoutMs: z.number().int().positive().optional(),
    /**
     * How a task's desktop is offered to the model. `openai-chat`: `ui-tars` (action text, the
     * default when the model's name contains "ui-tars") or `function` (the `computer` function
     * tool). `anthropic`: the computer tool version (default `computer_20250124`). Responses
     * always uses its own computer-use tool.
     */
    computerUse: z.enum(['ui-tars', 'function', 'computer_20241022', 'computer_20250124', 'computer_20251124']).optional(),
  })
  .strict();
/** A configured provider. */
export type ProviderConfig = z.infer<typeof ProviderConfigSchema>;

/** USD per million tokens for one model (input, output, input served from the prompt cache). */
export const ModelPriceSchema = z
  .object({
    inputPerMTok: z.number().nonnegative(),
    outputPerMTok: z.number().nonnegative(),
    cachedInputPerMTok: z.number().nonnegative().optional(),
  })
  .strict();

/** A model reference: `provider:model` (the model part may itself contain `:`, as Ollama tags do). */
export const ModelRefSchema = z
  .string()
  .max(200)
  .regex(/^[a-z0-9][a-z0-9._-]*:.+$/, 'a model reference is "provider:model", e.g. "openai:gpt-4.1-mini"');

/** The `models` section of the config file. */
export const ModelsConfigSchema = z
  .object({
    providers: z.record(ProviderNameSchema, ProviderConfigSchema).default({}),
    /** Used by goal tasks that name no model themselves and whose agent names none. */
    defaultModel: ModelRefSchema.optional(),
    /** By model name; a `prefix*` key covers a family, `*` every other model. */
    prices: z.record(z.string().min(1), ModelPriceSchema).default({}),
  })
  .strict();
/** The configured models. */
export type ModelsConfig = z.infer<typeof ModelsConfigSchema>;
