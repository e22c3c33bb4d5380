import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ToolDescriptorSchema } from '../../../../electron/contract/index.js';
import { AgentDeskError } from '../../../../electron/runtime/errors.js';
import { builtinTools } from '../../../../electron/runtime/tools/builtin/index.js';
import { ToolRegistry } from '../../../../electron/runtime/tools/registry.js';
import type { AnyTool } from '../../../../electron/runtime/tools/types.js';

function fakeTool(name: string, overrides: Partial<AnyTool> = {}): AnyTool {
  return {
    name,
    title: name,
    description: `the ${name} tool`,
    tier: 'mcp',
    capabilities: ['test.thing'],
    risk: 'read',
    readOnly: true,
    idempotent: true,
    input: z.object({ q: z.string() }).strict(),
    classify: () => ({ risks: ['read'], subject: '', readOnly: true, idempotent: true, insideWorkspace: true, preview: { summary: name } }),
    availability: () => ({ available: true }),
    execute: async () => ({}),
    ...overrides,
  };
}

describe('ToolRegistry', () => {
  it('registering a second tool with the same name is a conflict', () => {
    const registry = new ToolRegistry();
    registry.register(fakeTool('mcp__fs__read'));
    const attempt = () => registry.register(fakeTool('mcp__fs__read'));
    expect(attempt).toThrow(AgentDeskError);
    expect(attempt).toThrow('a tool named "mcp__fs__read" is already registered');
    try {
      attempt();
    } catch (error) {
      expect((error as AgentDeskError).code).toBe('conflict');
    }
  });

  it('an unregistered tool is gone and its name can be reused', () => {
    const registry = new ToolRegistry();
    registry.register(fakeTool('a'));
    expect(registry.unregister('a')).toBe(true);
    expect(registry.unregister('a')).toBe(false);
    expect(registry.get('a')).toBeUndefined();
    registry.register(fakeTool('a'));
    expect(registry.get('a')?.name).toBe('a');
  });

  it('descriptors are sorted by name whatever the registration order', () => {
    const registry = new ToolRegistry();
    for (const name of ['zeta', 'alpha', 'mid']) registry.register(fakeTool(name));
    expect(registry.descriptors().map((d) => d.name)).toEqual(['alpha', 'mid', 'zeta']);
    expect(registry.list().map((t) => t.name)).toEqual(['alpha', 'mid', 'zeta']);
  });

  it('the built-in tools describe themselves with JSON schemas where defaulted fields are optional', () => {
    const registry = new ToolRegistry();
    for (const tool of builtinTools()) registry.register(tool);
    const descriptors = registry.descriptors();
    expect(descriptors.map((d) => d.name)).toEqual(['echo', 'fs.delete', 'fs.list', 'fs.read', 'fs.write', 'http.request']);
    for (const descriptor of descriptors) {
      expect(ToolDescriptorSchema.parse(descriptor)).toEqual(descriptor);
      expect(descriptor).toMatchObject({ tier: 'api', availability: { available: true } });
      expect(descriptor.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
    }
    const read = descriptors.find((d) => d.name === 'fs.read')!;
    expect(read.inputSchema.required).toEqual(['path']);
    expect(read.inputSchema.properties).toMatchObject({ maxBytes: { default: 1024 * 1024, description: expect.any(String) } });
  });

  it('a schema that cannot become JSON Schema is described as {}', () => {
    const registry = new ToolRegistry();
    registry.register(fakeTool('odd', { input: { notZod: true } as unknown as AnyTool['input'] }));
    expect(registry.descriptors()[0]?.inputSchema).toEqual({});
  });

  it('an availability check that throws makes the tool unavailable with the reason', () => {
    const registry = new ToolRegistry();
    registry.register(
      fakeTool('flaky', {
        availability: () => {
          throw new Error('socket closed');
        },
      }),
    );
    expect(registry.descriptors()[0]?.availability).toEqual({ available: false, reason: 'availability check failed: socket closed' });
  });
});
