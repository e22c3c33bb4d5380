import { describe, expect, it } from 'vitest';
import { AllowedTools, allowedToolEntries } from '../../../../electron/runtime/skills/allowedTools.js';

describe('allowed-tools', () => {
  it('permits a listed tool, a wildcard match, and skills.read always', () => {
    const allowed = new AllowedTools(['fs.read', 'http.*']);
    expect(allowed.permits({ tool: 'fs.read', subject: 'a.txt' })).toBe(true);
    expect(allowed.permits({ tool: 'http.request', subject: 'http://x/' })).toBe(true);
    expect(allowed.permits({ tool: 'skills.read', subject: 'skill:other' })).toBe(true);
    expect(allowed.permits({ tool: 'fs.delete', subject: 'a.txt' })).toBe(false);
    // A name is the whole name: fs.read does not cover fs.read_all.
    expect(allowed.permits({ tool: 'fs.readall', subject: 'a.txt' })).toBe(false);
  });

  it('matches Tool(pattern) entries on the call subject, as policy rules do', () => {
    const allowed = new AllowedTools(['fs.write(reports/**)']);
    expect(allowed.permits({ tool: 'fs.write', subject: 'reports/2026/q4.md' })).toBe(true);
    expect(allowed.permits({ tool: 'fs.write', subject: 'config.json' })).toBe(false);
    expect(allowed.permits({ tool: 'fs.write', subject: 'reports/../config.json' })).toBe(false);
  });

  it('permits nothing but skills.read for an entry that does not parse (fail closed)', () => {
    const allowed = new AllowedTools(['fs.read(']);
    expect(allowed.permits({ tool: 'fs.read', subject: 'a.txt' })).toBe(false);
    expect(allowed.permits({ tool: 'skills.read', subject: 'skill:x' })).toBe(true);
  });

  it('splits the string form on spaces outside parentheses', () => {
    expect(allowedToolEntries('  fs.read\tfs.write(a b/**)  ')).toEqual(['fs.read', 'fs.write(a b/**)']);
    expect(allowedToolEntries(['fs.read', ' ', 'fs.list '])).toEqual(['fs.read', 'fs.list']);
  });
});
