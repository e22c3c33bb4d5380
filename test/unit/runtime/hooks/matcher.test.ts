import { describe, expect, it } from 'vitest';
import { compileToolMatcher } from '../../../../electron/runtime/hooks/matcher.js';

describe('hook tool matchers', () => {
  it('absent, empty and * match every tool', () => {
    for (const m of [undefined, '', '*', ' | ']) expect(compileToolMatcher(m)('mcp__fs__read_text_file')).toBe(true);
  });

  it('a wildcard matches tool names, with dots taken literally', () => {
    const fs = compileToolMatcher('fs.*');
    expect(fs('fs.delete')).toBe(true);
    expect(fs('fs.write')).toBe(true);
    expect(fs('fsXdelete')).toBe(false); // `.` is not "any character"
    expect(fs('http.request')).toBe(false);
    expect(fs('xfs.delete')).toBe(false); // anchored
  });

  it('alternatives joined by | each match, as in Claude Code', () => {
    const m = compileToolMatcher('fs.write | fs.delete|mcp__*__write*');
    expect(['fs.write', 'fs.delete', 'mcp__files__write_file'].map(m)).toEqual([true, true, true]);
    expect(['fs.read', 'fs.deleted', 'mcp__files__read'].map(m)).toEqual([false, false, false]);
  });

  it('regular-expression characters are literal, so a matcher cannot match more than it says', () => {
    expect(compileToolMatcher('fs.(read)')('fs.read')).toBe(false);
    expect(compileToolMatcher('[a-z]*')('fs.read')).toBe(false);
  });
});
