import { isDeepStrictEqual } from 'node:util';
import type { StepExpectation } from '../../contract/index.js';
import { previewJson, queryJson, type JsonQueryResult } from '../verify/jsonQuery.js';

/**
 * Checks a step's output against its expectations; returns one message per failed one, e.g.
 * `$.status: expected 200, got 404`. An expectation with only a path means "exists".
 */
export function checkExpectations(output: unknown, expect: readonly StepExpectation[]): string[] {
  return expect.flatMap((expectation) => {
    let result: JsonQueryResult;
    try {
      result = queryJson(output, expectation.path);
    } catch (error) {
      return [`${expectation.path}: invalid JSONPath (${error instanceof Error ? error.message : String(error)})`];
    }
    return failures(expectation, result).map((problem) => `${expectation.path}: ${problem}`);
  });
}

function failures(expectation: StepExpectation, result: JsonQueryResult): string[] {
  const { equals, contains, exists } = expectation;
  const hasEquals = Object.hasOwn(expectation, 'equals') && equals !== undefined;
  const got = result.found ? previewJson(result.value) : 'nothing';
  const problems: string[] = [];
  const wantsExistence = exists ?? (!hasEquals && contains === undefined ? true : undefined);
  if (wantsExistence === true && !result.found) problems.push('expected to exist, got nothing');
  if (wantsExistence === false && result.found) problems.push(`expected not to exist, got ${got}`);
  if (hasEquals && !(result.found && isDeepStrictEqual(result.value, equals))) {
    problems.push(`expected ${previewJson(equals)}, got ${got}`);
  }
  if (contains !== undefined) {
    const value = result.found ? result.value : undefined;
    if (typeof value !== 'string') problems.push(`expected a string containing ${JSON.stringify(contains)}, got ${got}`);
    else if (!value.includes(contains)) problems.push(`expected to contain ${JSON.stringify(contains)}, got ${got}`);
  }
  return problems;
}
