import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ConfigSchema, McpConfigFileSchema } from '../../../../electron/contract/index.js';
import { configFileIssues } from '../../../../electron/runtime/configFiles/configFileIssues.js';
import { isConfigFileKind, type ConfigFileKind } from '../../../../electron/runtime/configFiles/jsonSchemas.js';
import { REPO_ROOT } from '../../../support/cliSandbox.js';
import { shippedSchemaValidator } from '../../../support/jsonSchemaValidator.js';

/** A ```json block of a Markdown file, with the `<!-- schema: kind -->` marker on the line above it, if any. */
interface JsonBlock {
  where: string;
  text: string;
  marker?: string;
}

const MARKER = /^<!-- schema: (\S+) -->$/;

function jsonBlocks(file: string): JsonBlock[] {
  const lines = readFileSync(path.join(REPO_ROOT, file), 'utf8').split('\n');
  const blocks: JsonBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]?.trim() !== '```json') continue;
    const end = lines.findIndex((line, j) => j > i && line.trim() === '```');
    const marker = MARKER.exec(lines[i - 1]?.trim() ?? '')?.[1];
    blocks.push({ where: `${file}:${i + 1}`, text: lines.slice(i + 1, end).join('\n'), ...(marker !== undefined && { marker }) });
    i = end;
  }
  return blocks;
}

const DOCS = [
  'README.md',
  ...readdirSync(path.join(REPO_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const BLOCKS = DOCS.flatMap(jsonBlocks);
const MARKED = BLOCKS.filter((b) => b.marker !== undefined);

/** Which config file an unmarked block would pass for: all its top-level keys are that file's keys. */
function looksLike(text: string): ConfigFileKind | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  const within = (shape: object) => keys.length > 0 && keys.every((k) => k in shape);
  if (within(ConfigSchema.shape)) return 'config';
  if (within(McpConfigFileSchema.shape)) return 'mcp';
  return undefined;
}

describe('every config example in README.md and docs/ is valid', () => {
  it('the docs hold marked config.json and mcp.json examples (the extraction finds them)', () => {
    expect(MARKED.filter((b) => b.marker === 'config').length).toBeGreaterThanOrEqual(3);
    expect(MARKED.filter((b) => b.marker === 'mcp').length).toBeGreaterThanOrEqual(1);
  });

  it.each(MARKED.map((b) => [b.where, b] as const))('%s fits the shipped schema file and the zod schema', (_where, block) => {
    const kind = block.marker ?? '';
    expect(isConfigFileKind(kind) && kind !== 'playbook', `unknown marker "${kind}"`).toBe(true);
    const fileKind = kind as ConfigFileKind;
    expect(shippedSchemaValidator(fileKind)(JSON.parse(block.text))).toEqual([]);
    expect(configFileIssues(fileKind, block.text)).toEqual([]);
  });

  it('no ```json block that looks like config.json or mcp.json goes unmarked (so none escapes the check)', () => {
    const unmarked = BLOCKS.filter((b) => b.marker === undefined && looksLike(b.text) !== undefined).map((b) => b.where);
    expect(unmarked).toEqual([]);
  });

  it('a broken example would be caught: an unknown nested key fails both validators', () => {
    const broken = '{ "budget": { "maxStep": 10 } }';
    expect(looksLike(broken)).toBe('config');
    expect(shippedSchemaValidator('config')(JSON.parse(broken))).not.toEqual([]);
    expect(configFileIssues('config', broken)).toEqual([{ path: 'budget.maxStep', message: 'unknown field' }]);
  });
});

describe('every example playbook fits the shipped playbook schema', () => {
  const dir = path.join(REPO_ROOT, 'examples', 'playbooks');
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
  it.each(files)('examples/playbooks/%s', (file) => {
    const text = readFileSync(path.join(dir, file), 'utf8');
    expect(shippedSchemaValidator('playbook')(parseYaml(text))).toEqual([]);
    expect(configFileIssues('playbook', text)).toEqual([]);
  });
});
