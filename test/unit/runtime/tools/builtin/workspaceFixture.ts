import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Tool, ToolContext } from '../../../../../electron/runtime/tools/types.js';

/** A real temp workspace plus a sibling directory outside it, removed by `cleanup`. */
export interface WorkspaceFixture {
  workspace: string;
  outside: string;
  cleanup(): Promise<void>;
}

/** Creates `<tmp>/agent-desk-tools-*` holding `workspace/` and `outside/`. */
export async function makeWorkspace(): Promise<WorkspaceFixture> {
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-desk-tools-'));
  const workspace = path.join(base, 'workspace');
  const outside = path.join(base, 'outside');
  await fs.mkdir(workspace);
  await fs.mkdir(outside);
  return { workspace, outside, cleanup: () => fs.rm(base, { recursive: true, force: true }) };
}

/** A tool context for one call in `workspace`. */
export function toolContext(workspace: string, overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    taskId: 'task-1',
    stepId: 'step-1',
    idempotencyKey: 'task-1:step-1',
    workspace,
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** Validates `args` with the tool's schema (defaults applied, as the router does) and runs it. */
export async function runTool<I, O = unknown>(tool: Tool<I>, args: unknown, ctx: ToolContext): Promise<O> {
  return (await tool.execute(tool.input.parse(args), ctx)) as O;
}

/** The rejection of a promise, failing when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error & { retryable?: boolean; code?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { retryable?: boolean; code?: string };
  }
  throw new Error('expected the call to fail, but it succeeded');
}
