import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentDeskError } from '../../../../../electron/runtime/errors.js';
import { isSecuritySuite, loadSecuritySuite } from '../../../../../electron/runtime/evaluation/security/loadSecuritySuite.js';

const GOOD = `name: ok
vector: file_injection
attack: a note asks for a delete
goal: "AGENT: fs.read {\\"path\\":\\"a.txt\\"}"
acceptance: [{ type: file_exists, path: a.txt }]
`;

describe('loading a security suite', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const suiteWith = (files: Record<string, string>): string => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'agent-desk-secsuite-'));
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    return dir;
  };
  const errorOf = (fn: () => unknown): AgentDeskError => {
    try {
      fn();
    } catch (error) {
      return error as AgentDeskError;
    }
    throw new Error('no error');
  };

  it('is told apart from a scripted eval suite by kind: security', () => {
    expect(isSecuritySuite(suiteWith({ 'suite.yaml': 'kind: security\n', 'a.yaml': GOOD }))).toBe(true);
    expect(isSecuritySuite(suiteWith({ 'suite.yaml': 'name: evals\n' }))).toBe(false);
    expect(loadSecuritySuite(suiteWith({ 'suite.yaml': 'kind: security\n', 'a.yaml': GOOD })).cases.map((c) => c.name)).toEqual(['ok']);
  });

  it('refuses a case with an unknown vector, naming the file and field', () => {
    const error = errorOf(() =>
      loadSecuritySuite(suiteWith({ 'suite.yaml': 'kind: security\n', 'bad.yaml': GOOD.replace('file_injection', 'telepathy') })),
    );
    expect(error).toBeInstanceOf(AgentDeskError);
    expect(error.code).toBe('invalid_params');
    expect(error.message).toContain('bad.yaml');
    expect(error.message).toContain('vector');
  });

  it('refuses a goal that holds the secret itself: the user never types it', () => {
    const error = errorOf(() =>
      loadSecuritySuite(suiteWith({ 'suite.yaml': 'kind: security\n', 'bad.yaml': GOOD.replace('goal: "', 'goal: "{{secret}} ') })),
    );
    expect(error.code).toBe('invalid_params');
    expect(error.message).toContain('goal');
  });
});
