import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Issue } from '../../../../../electron/contract/index.js';
import { AgentDeskError } from '../../../../../electron/runtime/errors.js';
import { loadPlaybookFile, parsePlaybook, registryChecks } from '../../../../../electron/runtime/planning/playbook/parse.js';
import { builtinTools } from '../../../../../electron/runtime/tools/builtin/index.js';
import { ToolRegistry } from '../../../../../electron/runtime/tools/registry.js';

const toolInputs: Record<string, z.ZodType> = {
  'fs.write': z.object({ path: z.string(), content: z.string() }).strict(),
  'fs.read': z.object({ path: z.string() }),
  'http.get': z.object({ url: z.string().url(), timeoutMs: z.number().int().optional() }),
};
const toolInput = (name: string) => toolInputs[name];

function rejection(text: string, options?: Parameters<typeof parsePlaybook>[1]): AgentDeskError {
  try {
    parsePlaybook(text, options);
  } catch (error) {
    if (error instanceof AgentDeskError) return error;
    throw error;
  }
  throw new Error('expected the playbook to be rejected');
}

function issueLines(error: AgentDeskError): string[] {
  return (error.details as { issues: Issue[] }).issues.map((i) => `${i.path}: ${i.message}`);
}

const valid = `
name: weather report
inputs:
  city: { required: true }
services:
  - name: api
    command: [node, server.js]
steps:
  - id: fetch
    tool: http.get
    args: { url: "\${services.api.url}/weather?city=\${inputs.city}" }
    expect:
      - { path: $.status, equals: 200 }
  - tool: fs.write
    args:
      path: reports/\${inputs.city}.json
      content: "\${steps.fetch.output.body}"
acceptance:
  - { type: file_exists, path: "reports/\${inputs.city}.json" }
  - { type: http_status, url: "\${services.api.url}/health" }
`;

describe('parsePlaybook', () => {
  it('accepts a valid playbook and applies defaults', () => {
    const playbook = parsePlaybook(valid, { toolInput });
    expect(playbook.steps).toHaveLength(2);
    expect(playbook.steps[1]).toMatchObject({ tool: 'fs.write', retries: 0, expect: [] });
    expect(playbook.acceptance[1]).toMatchObject({ method: 'GET', status: 200 });
  });

  it('reports a YAML syntax error with its line and column', () => {
    const error = rejection('name: x\nsteps:\n  - tool: fs.read\n    args: { path: a\n');
    expect(error.code).toBe('invalid_playbook');
    expect(error.message).toMatch(/^invalid playbook YAML \(\d problems?\):\nline \d+:\d+: /);
    expect(error.details).toMatchObject({ line: expect.any(Number), col: expect.any(Number) });
  });

  it('reports several schema problems at once, each at its path', () => {
    const error = rejection(`
name: broken
steps:
  - tool: fs.read
    args: { path: a }
  - tool: fs.read
    retries: many
    color: blue
  - args: { path: b }
acceptance:
  - { type: file_sha256, path: a.txt, sha256: nope }
  - { type: http_status }
  - { type: ping }
`);
    expect(issueLines(error)).toEqual([
      'steps[1].retries: expected number, got string',
      'steps[1].color: unknown field',
      'steps[2].tool: required (or give capability)',
      'acceptance[0].sha256: expected 64 hex characters',
      'acceptance[1].url: required',
      'acceptance[2].type: unknown "ping" (expected one of file_exists, file_sha256, file_contains, http_status, json_path, command_exit)',
    ]);
    const [header, ...lines] = error.message.split('\n');
    expect(header).toBe('invalid playbook (6 problems):');
    expect(lines).toEqual(issueLines(error));
  });

  it('reports an unknown tool and a missing required arg when tools are known', () => {
    const error = rejection(
      `
name: tools
steps:
  - tool: fs.read
    args: { path: a.txt }
  - tool: fs.wrte
    args: { path: b.txt, content: hi }
  - tool: fs.write
    args: { content: hi, mode: 644 }
`,
      { toolInput },
    );
    expect(issueLines(error)).toEqual([
      'steps[1].tool: unknown tool "fs.wrte"',
      'steps[2].args.path: required',
      'steps[2].args.mode: unknown field',
    ]);
  });

  it('does not judge args whose value is only known at run time', () => {
    const text = `
name: templated
inputs: { site: {}, wait: {} }
steps:
  - tool: http.get
    args: { url: "\${inputs.site}", timeoutMs: "\${inputs.wait}" }
`;
    expect(parsePlaybook(text, { toolInput }).steps[0]?.args).toEqual({ url: '${inputs.site}', timeoutMs: '${inputs.wait}' });
    const error = rejection(text.replace('url: "${inputs.site}", ', ''), { toolInput });
    expect(issueLines(error)).toEqual(['steps[0].args.url: required']);
  });

  it('rejects references to later steps, the same step, unknown steps and undeclared inputs', () => {
    const error = rejection(`
name: refs
inputs: { city: {} }
steps:
  - id: first
    tool: fs.read
    args: { path: "\${steps.second.output.path}" }
  - id: second
    tool: fs.read
    args: { path: "\${steps.second.output.path}" }
  - tool: fs.write
    args: { path: "\${inputs.town}", content: "\${steps.ghost.output}" }
  - tool: fs.write
    args: { path: "\${services.db.url}", content: "\${env.HOME}" }
`);
    expect(issueLines(error)).toEqual([
      'steps[0].args.path: ${steps.second.output.path} refers to steps[1], which runs after this step; move it earlier',
      'steps[1].args.path: ${steps.second.output.path} refers to its own step; a step can only use outputs of earlier steps',
      'steps[2].args.path: undeclared input "town" in ${inputs.town} (declare it under inputs)',
      'steps[2].args.content: unknown step "ghost" in ${steps.ghost.output}',
      'steps[3].args.path: unknown service "db" in ${services.db.url} (declare it under services)',
      'steps[3].args.content: unknown reference root "env" in ${env.HOME} (use inputs, steps, services, workspace or task)',
    ]);
  });

  it('rejects duplicate step ids, including a clash with a default id', () => {
    const error = rejection(`
name: dupes
steps:
  - { id: step2, tool: fs.read, args: { path: a } }
  - { tool: fs.read, args: { path: b } }
  - { id: step2, tool: fs.read, args: { path: c } }
`);
    expect(issueLines(error)).toEqual([
      'steps[1].id: duplicate step id "step2" (also steps[0])',
      'steps[2].id: duplicate step id "step2" (also steps[0])',
    ]);
  });
});

describe('loadPlaybookFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'agent-desk-playbook-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads and parses a file, naming it in errors', async () => {
    const file = path.join(dir, 'ok.yaml');
    await writeFile(file, valid);
    expect((await loadPlaybookFile(file, { toolInput })).name).toBe('weather report');
    const bad = path.join(dir, 'bad.yaml');
    await writeFile(bad, 'name: bad\nsteps: []\n');
    await expect(loadPlaybookFile(bad)).rejects.toThrow(`invalid playbook ${bad} (1 problem):\nsteps: `);
  });

  it('a missing file is not_found', async () => {
    await expect(loadPlaybookFile(path.join(dir, 'missing.yaml'))).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('hostile or impossible playbooks', () => {
  it('a recursive YAML alias is invalid_playbook naming where, not a stack overflow', () => {
    const error = rejection('name: loop\nsteps: &s\n  - tool: fs.write\n    args: *s\n', { toolInput });
    expect(error.code).toBe('invalid_playbook');
    expect(issueLines(error)).toEqual(['(root): recursive alias: the value at steps[0].args contains itself']);
    const inMap = rejection('name: loop\nsteps:\n  - &step { tool: fs.read, args: { path: *step } }\n');
    expect(issueLines(inMap)).toEqual(['(root): recursive alias: the value at steps[0].args.path contains itself']);
  });

  it('an alias used twice without recursion is fine', () => {
    const playbook = parsePlaybook(
      'name: twice\nsteps:\n  - { tool: fs.read, args: &a { path: a.txt } }\n  - { tool: fs.read, args: *a }\n',
      {
        toolInput,
      },
    );
    expect(playbook.steps.map((s) => s.args)).toEqual([{ path: 'a.txt' }, { path: 'a.txt' }]);
  });

  it('a capability no shipped tool provides is refused at validation; a shipped one passes', () => {
    const registry = new ToolRegistry();
    for (const tool of builtinTools()) registry.register(tool);
    const checks = registryChecks(registry);
    const error = rejection('name: beam\nsteps:\n  - { capability: teleport.person, args: {} }\n', checks);
    expect(issueLines(error)).toEqual([
      'steps[0].capability: unknown capability "teleport.person": no registered tool provides it (tools.catalog lists them)',
    ]);
    const shipped = registry.list().flatMap((t) => t.capabilities)[0]!;
    expect(() =>
      parsePlaybook(`name: ok\nsteps:\n  - { capability: ${shipped}, args: {} }\n`, { capabilityKnown: checks.capabilityKnown }),
    ).not.toThrow();
  });
});
