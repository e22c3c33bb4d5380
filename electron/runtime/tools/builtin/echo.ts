import { z } from 'zod';
import type { Tool } from '../types.js';
import { previewSummary } from '../previewSummary.js';

/** Arguments of `echo`. */
export const EchoInputSchema = z.object({ value: z.unknown().optional().describe('Any JSON value; returned unchanged.') }).strict();
/** Validated `echo` arguments. */
export type EchoArgs = z.infer<typeof EchoInputSchema>;

/** Returns its argument: a no-op step for benchmarks and a way for playbooks to compute values. */
export const echoTool: Tool<EchoArgs> = {
  name: 'echo',
  title: 'Echo',
  description: 'Returns the given value unchanged. Useful as a no-op step or to name a computed value.',
  tier: 'api',
  capabilities: ['debug.echo'],
  risk: 'read',
  readOnly: true,
  idempotent: true,
  input: EchoInputSchema,
  classify: () => ({
    risks: ['read'],
    subject: '',
    readOnly: true,
    idempotent: true,
    insideWorkspace: true,
    preview: previewSummary('Echo a value', 'preview.echo'),
  }),
  availability: () => ({ available: true }),
  execute: async (args) => ({ value: args.value }),
};
