import { z } from 'zod';
import type { RiskClass, Tier } from '../../electron/contract/index.js';
import { ToolError, type AnyTool, type CallClassification } from '../../electron/runtime/tools/types.js';

const classification = (risk: RiskClass, subject: string, readOnly: boolean, idempotent: boolean): CallClassification => ({
  risks: [risk],
  subject,
  readOnly,
  idempotent,
  insideWorkspace: true,
  preview: { summary: `${risk} ${subject}` },
});

/** A real tool with a chosen tier, risk and behaviour, for engine and router tests. */
export function testTool(spec: {
  name: string;
  tier?: Tier;
  capabilities?: string[];
  risk?: RiskClass;
  readOnly?: boolean;
  idempotent?: boolean;
  available?: boolean;
  run: (args: { key?: string; value?: unknown }, ctx: { idempotencyKey: string; signal: AbortSignal }) => Promise<unknown>;
}): AnyTool {
  const risk = spec.risk ?? 'write';
  const readOnly = spec.readOnly ?? false;
  const idempotent = spec.idempotent ?? false;
  return {
    name: spec.name,
    title: spec.name,
    description: `test tool ${spec.name}`,
    tier: spec.tier ?? 'api',
    capabilities: spec.capabilities ?? [spec.name],
    risk,
    readOnly,
    idempotent,
    input: z.object({ key: z.string().optional(), value: z.unknown().optional() }).strict(),
    classify: (args: { key?: string }) => classification(risk, args.key ?? '', readOnly, idempotent),
    availability: () => (spec.available === false ? { available: false, reason: 'switched off by the test' } : { available: true }),
    execute: (args, ctx) => spec.run(args, ctx),
  };
}

/** Resolves when the signal aborts (a call that hangs until paused or cancelled). */
export const untilAborted = (signal: AbortSignal): Promise<never> =>
  new Promise((_, reject) => signal.addEventListener('abort', () => reject(new ToolError('aborted')), { once: true }));

/** A read-only tool whose every call hangs until its signal aborts (a timeout, pause or cancel). */
export const hangingTool = (name: string): AnyTool =>
  testTool({ name, risk: 'read', readOnly: true, idempotent: true, run: (_args, ctx) => untilAborted(ctx.signal) });
