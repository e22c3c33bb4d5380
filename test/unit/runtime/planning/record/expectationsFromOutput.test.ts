import { describe, expect, it } from 'vitest';
import { checkExpectations } from '../../../../../electron/runtime/planning/expectations.js';
import { expectationsFromOutput } from '../../../../../electron/runtime/planning/record/expectationsFromOutput.js';

describe('expectations derived from a recorded output', () => {
  const http = { url: 'http://x/a', status: 200, ok: true, headers: { date: 'Mon' }, body: 'ready', bytes: 5, truncated: false };

  it('pins the HTTP status and the body a read returned, not headers or sizes', () => {
    expect(expectationsFromOutput(http, true)).toEqual([
      { path: '$.status', equals: 200 },
      { path: '$.ok', equals: true },
      { path: '$.body', equals: 'ready' },
    ]);
  });

  it('pins only the outcome of a write', () => {
    expect(expectationsFromOutput({ ...http, status: 201 }, false)).toEqual([
      { path: '$.status', equals: 201 },
      { path: '$.ok', equals: true },
    ]);
    expect(expectationsFromOutput({ path: 'out.txt', bytes: 3, sha256: 'ab' }, false)).toEqual([]);
  });

  it('prefers a hash over the text it fingerprints, and pins long text by its opening', () => {
    expect(expectationsFromOutput({ content: 'x', sha256: 'ab', bytes: 1 }, true)).toEqual([{ path: '$.sha256', equals: 'ab' }]);
    const long = 'a'.repeat(3_000);
    expect(expectationsFromOutput({ text: long }, true)).toEqual([{ path: '$.text', contains: 'a'.repeat(200) }]);
    expect(expectationsFromOutput('plain', true)).toEqual([{ path: '$', equals: 'plain' }]);
  });

  it('holds for the output it came from and misses when the read changes', () => {
    const expectations = expectationsFromOutput(http, true);
    expect(checkExpectations(http, expectations)).toEqual([]);
    expect(checkExpectations({ ...http, body: 'moved' }, expectations)).toEqual(['$.body: expected "ready", got "moved"']);
  });
});
