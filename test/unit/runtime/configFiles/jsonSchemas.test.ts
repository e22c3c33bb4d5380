import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_FILE_KINDS, jsonSchemaFor, schemaFileName, schemaFileText } from '../../../../electron/runtime/configFiles/jsonSchemas.js';
import { REPO_ROOT } from '../../../support/cliSandbox.js';
import { shippedSchemaValidator } from '../../../support/jsonSchemaValidator.js';

type Node = Record<string, unknown>;

/** Every object-typed subschema with its JSON-pointer-ish location. */
function objectNodes(node: unknown, at = '#'): { at: string; node: Node }[] {
  if (typeof node !== 'object' || node === null) return [];
  if (Array.isArray(node)) return node.flatMap((child, i) => objectNodes(child, `${at}/${i}`));
  const here = (node as Node).type === 'object' ? [{ at, node: node as Node }] : [];
  return [...here, ...Object.entries(node).flatMap(([key, child]) => (key === 'default' ? [] : objectNodes(child, `${at}/${key}`)))];
}

describe('the published JSON Schemas (schema/*.schema.json)', () => {
  it.each(CONFIG_FILE_KINDS)(
    'schema/%s.schema.json is exactly what the zod schemas generate (run `npm run schema` after changing one)',
    (kind) => {
      const shipped = readFileSync(path.join(REPO_ROOT, 'schema', schemaFileName(kind)), 'utf8');
      expect(shipped).toBe(schemaFileText(kind));
    },
  );

  it.each(['config', 'mcp'] as const)('no object anywhere in %s.json accepts an unknown key', (kind) => {
    const open = objectNodes(jsonSchemaFor(kind))
      .filter(({ node }) => node.additionalProperties === undefined || node.additionalProperties === true)
      .map(({ at }) => at);
    expect(open).toEqual([]);
  });

  it('a strict JSON Schema validator compiles each shipped file and accepts the defaults and "$schema"', () => {
    expect(shippedSchemaValidator('config')({})).toEqual([]);
    expect(shippedSchemaValidator('config')({ $schema: './config.schema.json' })).toEqual([]);
    expect(shippedSchemaValidator('mcp')({ $schema: './mcp.schema.json', servers: {} })).toEqual([]);
    expect(shippedSchemaValidator('playbook')({ name: 'p', steps: [{ tool: 'fs.read', args: { path: 'a' } }] })).toEqual([]);
  });

  it('editors get descriptions and defaults: hover text on sections, defaults on leaves', () => {
    const config = jsonSchemaFor('config') as { title: string; properties: Record<string, Node & { properties?: Record<string, Node> }> };
    expect(config.title).toBe('Agent Desk config.json');
    expect(config.properties.budget?.description).toMatch(/limits/);
    expect(config.properties.gateway?.properties?.port).toMatchObject({ default: 7717, description: expect.stringContaining('listens') });
    expect(config.properties.durability).toMatchObject({ enum: ['NORMAL', 'FULL'], default: 'NORMAL' });
  });
});
