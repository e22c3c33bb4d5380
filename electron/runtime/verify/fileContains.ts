import { readFile } from 'node:fs/promises';
import { describeFileError } from './fileAccess.js';
import { measureCheck, truncate, type Observation } from './measure.js';
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
      if ('refusal' in confined) return { passed: false, output: confined.refusal };
      const target = confined.path;
      let content: string;
      try {
        content = await readFile(target, { encoding: 'utf8', signal: ctx.signal });
      } catch (error) {
        return { passed: false, output: describeFileError(error, target) };
      }
      const observations = [
        ...(check.text === undefined ? [] : [containsText(content, check.text)]),
        ...(check.pattern === undefined ? [] : [matchesPattern(content, check.pattern)]),
      ];
      const passed = observations.every((o) => o.passed);
      const lines = observations.map((o) => o.output);
      if (!passed) lines.push(`file (${content.length} chars) starts with: ${JSON.stringify(truncate(content, EXCERPT))}`);
      return { passed, output: lines.join('\n') };
    }),
};

function containsText(content: string, text: string): Observation {
  const at = content.indexOf(text);
  return at === -1
    ? { passed: false, output: `text ${JSON.stringify(text)} not found` }
    : { passed: true, output: `text ${JSON.stringify(text)} found at line ${lineOf(content, at)}` };
}

function matchesPattern(content: string, pattern: string): Observation {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, 'm');
  } catch (error) {
    return { passed: false, output: `invalid pattern /${pattern}/: ${(error as Error).message}` };
  }
  const match = regex.exec(content);
  if (match === null) return { passed: false, output: `pattern /${pattern}/ not matched` };
  const excerpt = JSON.stringify(truncate(match[0], 120));
  return { passed: true, output: `pattern /${pattern}/ matched ${excerpt} at line ${lineOf(content, match.index)}` };
}

function lineOf(content: string, offset: number): number {
  let line = 1;
  for (let i = content.indexOf('\n'); i !== -1 && i < offset; i = content.indexOf('\n', i + 1)) line += 1;
  return line;
}
