import { readFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { describeFileError } from './fileAccess.js';
import { describeFetchError, fetchForCheck } from './httpRequest.js';
import { previewJson, queryJson } from './jsonQuery.js';
import { measureCheck, truncate, type Observation } from './measure.js';
import type { CheckContext, CheckOf, Verifier } from './types.js';
import { confineToWorkspace } from './workspacePath.js';

type JsonPathCheck = CheckOf<'json_path'>;

/** How much of the found value (or of a non-JSON body) a result shows. */
const PREVIEW = 500;

/**
 * `json_path`: a JSONPath into a JSON document (fetched from `url` or read from a workspace
 * `file`) exists and/or deep-equals `equals`. With neither, the path must exist.
 */
export const jsonPathVerifier: Verifier<JsonPathCheck> = {
  type: 'json_path',
  run: (check, ctx) =>
    measureCheck(check, async () => {
      const document = await loadDocument(check, ctx);
      if ('failure' in document) return { passed: false, output: document.failure };
      return evaluate(check, document.json);
    }),
};

function evaluate(check: JsonPathCheck, json: unknown): Observation {
  const result = queryJson(json, check.path);
  const seen = result.found ? `${check.path} = ${previewJson(result.value, PREVIEW)}` : `${check.path}: nothing found`;
  const wantsExistence = check.exists ?? (check.equals === undefined ? true : undefined);
  const problems: string[] = [];
  if (wantsExistence !== undefined && result.found !== wantsExistence) {
    problems.push(wantsExistence ? 'expected to exist' : 'expected not to exist');
  }
  if (check.equals !== undefined && !(result.found && isDeepStrictEqual(result.value, check.equals))) {
    problems.push(`expected ${previewJson(check.equals, PREVIEW)}`);
  }
  return { passed: problems.length === 0, output: problems.length === 0 ? seen : `${seen} (${problems.join('; ')})` };
}

async function loadDocument(check: JsonPathCheck, ctx: CheckContext): Promise<{ json: unknown } | { failure: string }> {
  if (check.file !== undefined) {
    const confined = await confineToWorkspace(ctx.workspace, check.file);
    if ('refusal' in confined) return { failure: confined.refusal };
    const target = confined.path;
    try {
      return parseJson(await readFile(target, { encoding: 'utf8', signal: ctx.signal }), target);
    } catch (error) {
      return { failure: describeFileError(error, target) };
    }
  }
  const url = check.url ?? '';
  try {
    const response = await fetchForCheck(url, {
      method: 'GET',
      timeoutMs: check.timeoutMs,
      signal: ctx.signal,
      ...(ctx.permitUrl && { permitUrl: ctx.permitUrl }),
    });
    const body = await response.text();
    // A non-2xx answer is not the document the check is about, whatever its body says.
    if (!response.ok) return { failure: `${url} answered HTTP ${response.status}: ${JSON.stringify(truncate(body, PREVIEW))}` };
    return parseJson(body, url);
  } catch (error) {
    return { failure: describeFetchError(error, check.timeoutMs) };
  }
}

function parseJson(text: string, source: string): { json: unknown } | { failure: string } {
  try {
    return { json: JSON.parse(text) };
  } catch (error) {
    return { failure: `${source} is not JSON (${(error as Error).message}): ${JSON.stringify(truncate(text, PREVIEW))}` };
  }
}
