import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { RouteSchema, type Tier } from '../../../../electron/contract/index.js';
import { AgentDeskError } from '../../../../electron/runtime/errors.js';
import { builtinTools } from '../../../../electron/runtime/tools/builtin/index.js';
import { ToolRegistry } from '../../../../electron/runtime/tools/registry.js';
import { describeRoute, ToolRouter, type RouteRequest } from '../../../../electron/runtime/tools/router.js';
import type { AnyTool } from '../../../../electron/runtime/tools/types.js';

/** A file-writing tool at another tier, with a switchable availability. */
function writerAt(name: string, tier: Tier, unavailableBecause?: string): AnyTool {
  return {
    name,
    title: name,
    description: `writes files (${tier})`,
    tier,
    capabilities: ['file.write'],
    risk: 'write',
    readOnly: false,
    idempotent: true,
    input: z.object({ path: z.string(), content: z.string() }),
    classify: () => ({
      risks: ['write'],
      subject: '',
      readOnly: false,
      idempotent: true,
      insideWorkspace: true,
      preview: { summary: name },
    }),
    availability: () => (unavailableBecause === undefined ? { available: true } : { available: false, reason: unavailableBecause }),
    execute: async () => ({ ok: true }),
  };
}

function routerWith(...tools: AnyTool[]): ToolRouter {
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tool);
  return new ToolRouter(registry);
}

/** Builtins with fs.write swapped for one that reports itself unavailable. */
function builtinsWithUnavailableFsWrite(): AnyTool[] {
  return builtinTools().map((t) =>
    t.name === 'fs.write' ? { ...t, availability: () => ({ available: false, reason: 'workspace is read-only' }) } : t,
  );
}

async function errorOf(router: ToolRouter, request: RouteRequest): Promise<AgentDeskError> {
  try {
    await router.plan(request);
  } catch (error) {
    expect(error).toBeInstanceOf(AgentDeskError);
    return error as AgentDeskError;
  }
  throw new Error('expected plan() to fail');
}

const writeArgs = { path: 'a.txt', content: 'hello' };

describe('ToolRouter', () => {
  it('a named tool comes first, then tools sharing its capability down the tiers', async () => {
    const router = routerWith(
      writerAt('gui__editor_save', 'gui'),
      writerAt('browser__upload', 'browser'),
      writerAt('mcp__fs__write_file', 'mcp'),
      ...builtinTools(),
    );
    const plan = await router.plan({ tool: 'fs.write', args: writeArgs });
    expect(plan.candidates.map((c) => [c.tool.name, c.reason])).toEqual([
      ['fs.write', 'named in plan'],
      ['mcp__fs__write_file', 'fallback if fs.write fails: mcp__fs__write_file provides file.write (mcp tier)'],
      ['browser__upload', 'fallback if fs.write fails: browser__upload provides file.write (browser tier)'],
      ['gui__editor_save', 'fallback if fs.write fails: gui__editor_save provides file.write (gui tier)'],
    ]);
    expect(plan.skipped).toEqual([]);
  });

  it('a tool registered or removed after a plan changes the next plan (providers are not kept past a registry change)', async () => {
    const registry = new ToolRegistry();
    for (const tool of builtinTools()) registry.register(tool);
    const router = new ToolRouter(registry);
    expect((await router.plan({ tool: 'fs.write', args: writeArgs })).candidates.map((c) => c.tool.name)).toEqual(['fs.write']);
    registry.register(writerAt('mcp__fs__write_file', 'mcp'));
    expect((await router.plan({ tool: 'fs.write', args: writeArgs })).candidates.map((c) => c.tool.name)).toEqual([
      'fs.write',
      'mcp__fs__write_file',
    ]);
    expect((await router.plan({ capability: 'file.write', args: writeArgs })).candidates.map((c) => c.tool.name)).toEqual([
      'fs.write',
      'mcp__fs__write_file',
    ]);
    registry.unregister('mcp__fs__write_file');
    expect((await router.plan({ tool: 'fs.write', args: writeArgs })).candidates.map((c) => c.tool.name)).toEqual(['fs.write']);
  });

  it('a named tool whose higher tier went down says so on the next plan (availability is read per plan)', async () => {
    let up = true;
    const mcp = {
      ...writerAt('mcp__fs__write_file', 'mcp'),
      availability: () => (up ? { available: true } : { available: false, reason: 'server stopped' }),
    };
    const router = routerWith(mcp, writerAt('browser__upload', 'browser'));
    expect((await router.plan({ tool: 'browser__upload', args: writeArgs })).candidates[0]?.reason).toBe('named in plan');
    up = false;
    expect((await router.plan({ tool: 'browser__upload', args: writeArgs })).candidates[0]?.reason).toMatch(
      /mcp__fs__write_file is unavailable \(server stopped\)/,
    );
  });

  it('candidate arguments are the parsed ones, with defaults applied', async () => {
    const plan = await routerWith(...builtinTools()).plan({ tool: 'fs.write', args: writeArgs });
    expect(plan.candidates[0]?.args).toEqual({ ...writeArgs, encoding: 'utf8', mode: 'overwrite' });
  });

  it('an unavailable named tool is skipped with its reason and the next tier takes over', async () => {
    const router = routerWith(writerAt('mcp__fs__write_file', 'mcp'), ...builtinsWithUnavailableFsWrite());
    const plan = await router.plan({ tool: 'fs.write', args: writeArgs });
    expect(plan.candidates.map((c) => c.reason)).toEqual([
      'fallback: fs.write unavailable; mcp__fs__write_file provides file.write (mcp tier)',
    ]);
    expect(plan.skipped).toEqual([{ tool: 'fs.write', tier: 'api', outcome: 'unavailable', detail: 'workspace is read-only' }]);
  });

  it('a capability alone routes to the highest available tier, whatever the registration order', async () => {
    const router = routerWith(writerAt('browser__upload', 'browser'), writerAt('mcp__fs__write_file', 'mcp'), ...builtinTools());
    const plan = await router.plan({ capability: 'file.write', args: writeArgs });
    expect(plan.candidates.map((c) => [c.tool.name, c.reason])).toEqual([
      ['fs.write', 'highest available tier for file.write'],
      ['mcp__fs__write_file', 'fallback if fs.write fails: mcp__fs__write_file provides file.write (mcp tier)'],
      ['browser__upload', 'fallback if fs.write fails: browser__upload provides file.write (browser tier)'],
    ]);
  });

  it('when the top tier is unavailable, the capability routes to the next available tier', async () => {
    const router = routerWith(
      writerAt('mcp__fs__write_file', 'mcp', 'server not running'),
      writerAt('browser__upload', 'browser'),
      ...builtinsWithUnavailableFsWrite(),
    );
    const plan = await router.plan({ capability: 'file.write', args: writeArgs });
    expect(plan.candidates.map((c) => [c.tool.name, c.reason])).toEqual([['browser__upload', 'highest available tier for file.write']]);
    expect(plan.skipped.map((a) => [a.tool, a.outcome, a.detail])).toEqual([
      ['fs.write', 'unavailable', 'workspace is read-only'],
      ['mcp__fs__write_file', 'unavailable', 'server not running'],
    ]);
    expect(RouteSchema.parse(describeRoute(plan.candidates[0]!, plan.skipped))).toEqual({
      tool: 'browser__upload',
      tier: 'browser',
      reason: 'highest available tier for file.write',
      reasonText: { code: 'route.highestTier', params: { capability: 'file.write' } },
      attempts: plan.skipped,
    });
  });

  it('an unknown tool name is not_found', async () => {
    const error = await errorOf(routerWith(...builtinTools()), { tool: 'fs.wirte', args: {} });
    expect(error.code).toBe('not_found');
    expect(error.message).toBe('unknown tool "fs.wirte"');
  });

  it('arguments the named tool rejects, with no fallback accepting them, list each issue by path', async () => {
    const error = await errorOf(routerWith(...builtinTools()), { tool: 'fs.write', args: { path: 7, extra: true } });
    expect(error.code).toBe('invalid_params');
    expect(error.message.split('\n')).toEqual([
      'invalid arguments for fs.write:',
      'args.path: Invalid input: expected string, received number',
      'args.content: Invalid input: expected string, received undefined',
      'args: Unrecognized key: "extra"',
    ]);
    expect((error.details as { issues: unknown[] }).issues).toContainEqual({
      path: 'args.content',
      message: 'Invalid input: expected string, received undefined',
    });
  });

  it('arguments the named tool rejects are passed to a fallback that accepts them', async () => {
    const lenient = { ...writerAt('mcp__fs__write_file', 'mcp'), input: z.object({ path: z.string() }) };
    const plan = await routerWith(lenient, ...builtinTools()).plan({ tool: 'fs.write', args: { path: 'a.txt' } });
    expect(plan.candidates.map((c) => c.reason)).toEqual([
      'fallback: fs.write rejected the arguments; mcp__fs__write_file provides file.write (mcp tier)',
    ]);
    expect(plan.skipped[0]).toMatchObject({
      tool: 'fs.write',
      outcome: 'invalid_args',
      detail: 'args.content: Invalid input: expected string, received undefined',
    });
  });

  it('nothing available is "unavailable", naming each tool and why', async () => {
    const router = routerWith(writerAt('mcp__fs__write_file', 'mcp', 'server not running'), ...builtinsWithUnavailableFsWrite());
    const error = await errorOf(router, { capability: 'file.write', args: writeArgs });
    expect(error.code).toBe('unavailable');
    expect(error.message).toBe(
      'no available tool for capability "file.write": fs.write is unavailable (workspace is read-only); mcp__fs__write_file is unavailable (server not running)',
    );
    expect((error.details as { attempts: unknown[] }).attempts).toHaveLength(2);
  });

  it('a capability nobody provides is "unavailable"', async () => {
    const error = await errorOf(routerWith(...builtinTools()), { capability: 'mail.send', args: {} });
    expect(error.code).toBe('unavailable');
    expect(error.message).toBe('no tool provides capability "mail.send"');
  });

  it('a step with neither tool nor capability is invalid', async () => {
    expect((await errorOf(routerWith(), { args: {} })).code).toBe('invalid_params');
  });

  it('a model is offered only the highest available tier per capability, unless a tier is asked for', async () => {
    const router = routerWith(writerAt('mcp__fs__write_file', 'mcp'), writerAt('gui__editor_save', 'gui'), ...builtinTools());
    const offered = (await router.offer()).map((t) => t.name);
    expect(offered).toContain('fs.write');
    expect(offered).not.toContain('mcp__fs__write_file');
    expect(offered).not.toContain('gui__editor_save');
    expect((await router.offer({ includeTiers: ['gui'] })).map((t) => t.name)).toContain('gui__editor_save');

    const degraded = routerWith(writerAt('mcp__fs__write_file', 'mcp'), ...builtinsWithUnavailableFsWrite());
    expect((await degraded.offer()).map((t) => t.name)).toContain('mcp__fs__write_file');
  });

  it('offered to a task, only the tools its filter permits count, so a permitted lower tier stands in for the best one', async () => {
    const registry = new ToolRegistry();
    for (const tool of [writerAt('mcp__fs__write_file', 'mcp'), ...builtinTools()]) registry.register(tool);
    registry.restrictPerTask(async (task) =>
      task.agent === 'mcp-only' ? (name: string) => name.startsWith('mcp__') || name === 'fs.read' : undefined,
    );
    const router = new ToolRouter(registry);
    expect((await router.offer({ task: { agent: 'mcp-only' } })).map((t) => t.name)).toEqual(['fs.read', 'mcp__fs__write_file']);
    expect((await router.offer({ task: {} })).map((t) => t.name)).toContain('fs.write');
    expect((await router.offer({ task: {} })).map((t) => t.name)).not.toContain('mcp__fs__write_file');
  });

  it('routing for a task falls back only to tools it may use; a named tool it may not use stays first for the gate to refuse', async () => {
    const registry = new ToolRegistry();
    for (const tool of [writerAt('fs.write', 'api'), writerAt('mcp__fs__write_file', 'mcp'), writerAt('gui__editor_save', 'gui')])
      registry.register(tool);
    registry.restrictPerTask(async (task) =>
      task.agent === 'no-api' ? (name: string) => name !== 'fs.write' : task.agent === 'none' ? () => false : undefined,
    );
    const router = new ToolRouter(registry);
    const names = async (request: RouteRequest) => (await router.plan(request)).candidates.map((c) => c.tool.name);

    expect(await names({ capability: 'file.write', args: writeArgs, task: { agent: 'no-api' } })).toEqual([
      'mcp__fs__write_file',
      'gui__editor_save',
    ]);
    expect(await names({ capability: 'file.write', args: writeArgs, task: {} })).toEqual([
      'fs.write',
      'mcp__fs__write_file',
      'gui__editor_save',
    ]);
    expect(await names({ tool: 'fs.write', args: writeArgs, task: { agent: 'no-api' } })).toEqual([
      'fs.write',
      'mcp__fs__write_file',
      'gui__editor_save',
    ]);
    expect(await names({ tool: 'fs.write', args: writeArgs, task: { agent: 'none' } })).toEqual(['fs.write']);
    expect((await names({ capability: 'file.write', args: writeArgs, task: { agent: 'none' } }))[0]).toBe('fs.write');
  });
});
