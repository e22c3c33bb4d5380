import { describe, expect, it } from 'vitest';
import { ConfigSchema, McpConfigFileSchema } from '../../../electron/contract/index.js';
import { configFileIssues } from '../../../electron/runtime/configFiles/configFileIssues.js';
import type { ConfigFileKind } from '../../../electron/runtime/configFiles/jsonSchemas.js';
import { shippedSchemaValidator } from '../../support/jsonSchemaValidator.js';

/** A config.json that sets every section, so every object in it can be attacked with an unknown key. */
const FULL_CONFIG = {
  $schema: './config.schema.json',
  policy: {
    rules: { deny: ['fs.delete(/etc/**)'], ask: [], allow: ['fs.read(**)'] },
    networkAllow: ['api.github.com'],
    allowWrites: ['http://127.0.0.1:*'],
    profiles: { ops: { allow: ['fs.delete(logs/**)'] } },
  },
  budget: { maxSteps: 10, maxTokens: 1000, maxCostUsd: 1, maxWallMs: 60_000 },
  gateway: { host: '0.0.0.0', port: 0 },
  scheduler: { concurrency: 2, missedGraceMs: 0 },
  sandbox: {
    poolSize: 1,
    image: 'agent-desk/desktop:dev',
    egressAllow: ['example.com'],
    liveFps: 0,
    screen: { width: 1920, height: 1080 },
  },
  browser: { profileDir: 'profile' },
  memory: { inPrompt: true },
  durability: 'FULL',
  models: {
    providers: {
      openai: { kind: 'openai-chat', baseUrl: 'https://api.openai.com/v1', apiKeySecret: 'k', headers: { 'OpenAI-Project': 'p' } },
    },
    defaultModel: 'openai:gpt-4.1-mini',
    prices: { '*': { inputPerMTok: 0, outputPerMTok: 0 } },
  },
};

const FULL_MCP = {
  $schema: './mcp.schema.json',
  servers: {
    files: { transport: 'stdio', command: 'npx', args: ['-y', 'x'], env: { A: 'b' }, cwd: '/tmp', capabilities: { read: ['file.read'] } },
    web: { transport: 'http', url: 'https://mcp.example.com/mcp', headers: { 'X-A': 'b' }, timeoutMs: 1000, enabled: false },
  },
};

/** Every plain object inside `value` with its config path (`policy.rules`, `servers.files.env`). */
function objectsIn(value: unknown, at = ''): { at: string; object: Record<string, unknown> }[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  const object = value as Record<string, unknown>;
  return [{ at, object }, ...Object.entries(object).flatMap(([key, child]) => objectsIn(child, at === '' ? key : `${at}.${key}`))];
}

/** A deep copy of `doc` with `key: 1` added to the object at `at`. */
function withKey(doc: object, at: string, key: string): unknown {
  const copy = structuredClone(doc) as Record<string, unknown>;
  const target =
    at === '' ? copy : (at.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], copy) as Record<string, unknown>);
  target[key] = 1;
  return copy;
}

const zodIssues = (kind: ConfigFileKind, doc: unknown) => configFileIssues(kind, JSON.stringify(doc));

describe('config.json and mcp.json: "$schema" accepted, unknown keys refused at every depth', () => {
  it('a config with "$schema" is valid for zod and for the shipped schema, and keeps it', () => {
    expect(zodIssues('config', FULL_CONFIG)).toEqual([]);
    expect(shippedSchemaValidator('config')(FULL_CONFIG)).toEqual([]);
    expect(ConfigSchema.parse(FULL_CONFIG).$schema).toBe('./config.schema.json');
    expect(zodIssues('mcp', FULL_MCP)).toEqual([]);
    expect(shippedSchemaValidator('mcp')(FULL_MCP)).toEqual([]);
    expect(McpConfigFileSchema.parse(FULL_MCP).$schema).toBe('./mcp.schema.json');
  });

  it('{"budget":{"maxStep":10}} names budget.maxStep, in zod and in the schema file', () => {
    expect(zodIssues('config', { budget: { maxStep: 10 } })).toEqual([{ path: 'budget.maxStep', message: 'unknown field' }]);
    expect(shippedSchemaValidator('config')({ budget: { maxStep: 10 } })).toEqual([
      '/budget: must NOT have additional properties (maxStep)',
    ]);
  });

  it.each([
    ['config', FULL_CONFIG],
    ['mcp', FULL_MCP],
  ] as const)('an extra key in any object of a full %s file is refused by both, at its path', (kind, doc) => {
    const objects = objectsIn(doc);
    expect(objects.length).toBeGreaterThan(kind === 'config' ? 15 : 6);
    for (const { at } of objects) {
      const attacked = withKey(doc, at, 'zzExtra');
      const where = at === '' ? 'zzExtra' : `${at}.zzExtra`;
      expect(
        zodIssues(kind, attacked).map((i) => i.path),
        where,
      ).toContain(where);
      expect(shippedSchemaValidator(kind)(attacked).length, where).toBeGreaterThan(0);
    }
  });

  it('every problem is its own line with its path, not one line per object', () => {
    const issues = zodIssues('config', {
      budget: { maxStep: 1, maxSteps: 0 },
      sandbox: { screen: { width: 10, height: 800, depth: 24 } },
      colour: 'blue',
    });
    expect(issues).toEqual([
      { path: 'budget.maxSteps', message: 'Too small: expected number to be >0' },
      { path: 'budget.maxStep', message: 'unknown field' },
      { path: 'sandbox.screen.width', message: 'Too small: expected number to be >=320' },
      { path: 'sandbox.screen.depth', message: 'unknown field' },
      { path: 'colour', message: 'unknown field' },
    ]);
  });

  it('"$schema" must be a string, and a file that is not JSON is one issue saying so', () => {
    expect(zodIssues('config', { $schema: 7 })).toEqual([{ path: '$schema', message: 'expected string, got number' }]);
    expect(shippedSchemaValidator('config')({ $schema: 7 })).toEqual(['/$schema: must be string']);
    expect(configFileIssues('mcp', '{"servers": ')).toEqual([{ path: '(root)', message: expect.stringMatching(/^not valid JSON: /) }]);
  });

  it('an MCP server URL that is not a URL is refused by both', () => {
    const doc = { servers: { web: { transport: 'http', url: 'not a url' } } };
    expect(zodIssues('mcp', doc).map((i) => i.path)).toEqual(['servers.web.url']);
    expect(shippedSchemaValidator('mcp')(doc)).toContain('/servers/web/url: must match format "uri"');
  });
});
