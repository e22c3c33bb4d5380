import { readFile } from 'node:fs/promises';
import { fileErrorObservation, refusedObservation } from './fileAccess.js';
import { measureCheck, observed, truncate, type Observation } from './measure.js';
import type { CheckOf, Verifier } from './types.js';
import { confineToWorkspace } from './workspacePath.js';

/** How much of the file a failed check shows. */
const EXCERPT = 300;

/**
 * `file_contains`: a file contains `text` and/or matches `pattern` (a regular expression in
 * multiline mode, so `^` and `$` match at line breaks).
 */
export const fileContainsVerifier: Verifier<CheckOf<'file_contains'>> = {
  type: 'file_contains',
  run: (check, ctx) =>
    measureCheck(check, async () => {
      const confined = await confineToWorkspace(ctx.workspace, check.path);
      if ('refusal' in confined) return refusedObservation(confined.refusal);
      const target = confined.path;
      let content: string;
      try {
        content = await readFile(target, { encoding: 'utf8', signal: ctx.signal });
      } catch (error) {
        return fileErrorObservation(error, target);
      }
      const observations = [
        ...(check.text === undefined ? [] : [containsText(content, check.text)]),
        ...(check.pattern === undefined ? [] : [matchesPattern(content, check.pattern)]),
      ];
      const passed = observations.every((o) => o.passed);
      const lines = observations.map((o) => o.output);
      const texts = observations.flatMap((o) => (o.text ? [o.text] : []));
      if (!passed) {
        const head = JSON.stringify(truncate(content, EXCERPT));
        lines.push(`file (${content.length} chars) starts with: ${head}`);
        texts.push({ code: 'check.fileStartsWith', params: { chars: content.length }, detail: head });
      }
      return { passed, output: lines.join('\n'), text: { code: 'check.lines', params: { lines: texts } } };
    }),
};

function containsText(content: string, text: string): Observation {
  const at = content.indexOf(text);
  return at === -1
    ? observed(false, `text ${JSON.stringify(text)} not found`, 'check.textNotFound', { text: JSON.stringify(text) })
    : observed(true, `text ${JSON.stringify(text)} found at line ${lineOf(content, at)}`, 'check.textFound', {
        text: JSON.stringify(text),
        line: lineOf(content, at),
      });
}

function matchesPattern(content: string, pattern: string): Observation {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, 'm');
  } catch (error) {
    const message = (error as Error).message;
    return observed(false, `invalid pattern /${pattern}/: ${message}`, 'check.patternInvalid', { pattern }, message);
  }
  const match = regex.exec(content);
  if (match === null) return observed(false, `pattern /${pattern}/ not matched`, 'check.patternNotMatched', { pattern });
  const excerpt = JSON.stringify(truncate(match[0], 120));
  const line = lineOf(content, match.index);
  return observed(true, `pattern /${pattern}/ matched ${excerpt} at line ${line}`, 'check.patternMatched', { pattern, excerpt, line });
}

function lineOf(content: string, offset: number): number {
  let line = 1;
  for (let i = content.indexOf('\n'); i !== -1 && i < offset; i = content.indexOf('\n', i + 1)) line += 1;
  return line;
}
