import { describe, expect, it } from 'vitest';
import { checkExpectations } from '../../../../electron/runtime/planning/expectations.js';

const output = {
  status: 404,
  ok: false,
  body: { message: 'Not Found: /stock', items: [{ id: 1 }, { id: 2 }], empty: null, zero: 0 },
};

describe('checkExpectations', () => {
  it('passes when every expectation holds', () => {
    expect(
      checkExpectations(output, [
        { path: '$.status', equals: 404 },
        { path: '$.body.items', equals: [{ id: 1 }, { id: 2 }] },
        { path: '$.body.items[*].id', equals: [1, 2] },
        { path: '$.body.message', contains: 'Not Found' },
        { path: '$.body.empty', exists: true },
        { path: '$.body.zero', equals: 0 },
        { path: '$.body.missing', exists: false },
        { path: '$.ok' },
      ]),
    ).toEqual([]);
  });

  it('describes each failed expectation with what was found', () => {
    expect(
      checkExpectations(output, [
        { path: '$.status', equals: 200 },
        { path: '$.body.items[0]', equals: { id: 2 } },
        { path: '$.body.message', contains: 'created' },
        { path: '$.status', contains: '200' },
        { path: '$.body.nope', exists: true },
        { path: '$.body.items', exists: false },
        { path: '$.body.gone', equals: 'x' },
      ]),
    ).toEqual([
      '$.status: expected 200, got 404',
      '$.body.items[0]: expected {"id":2}, got {"id":1}',
      '$.body.message: expected to contain "created", got "Not Found: /stock"',
      '$.status: expected a string containing "200", got 404',
      '$.body.nope: expected to exist, got nothing',
      '$.body.items: expected not to exist, got [{"id":1},{"id":2}]',
      '$.body.gone: expected "x", got nothing',
    ]);
  });

  it('works on a plain text or falsy output at the root', () => {
    expect(checkExpectations('done: 3 rows', [{ path: '$', contains: '3 rows' }])).toEqual([]);
    expect(checkExpectations(0, [{ path: '$', equals: 0 }])).toEqual([]);
    expect(checkExpectations('text', [{ path: '$.status', exists: true }])).toEqual(['$.status: expected to exist, got nothing']);
  });
});
