import { stat } from 'node:fs/promises';
import { describeFileError, isMissingFile } from './fileAccess.js';
import { measureCheck } from './measure.js';
import type { CheckOf, Verifier } from './types.js';
import { confineToWorkspace } from './workspacePath.js';

/** `file_exists`: a path is present (a file or a folder), or with `exists: false` absent. */
export const fileExistsVerifier: Verifier<CheckOf<'file_exists'>> = {
  type: 'file_exists',
  run: (check, ctx) =>
    measureCheck(check, async () => {
      const confined = await confineToWorkspace(ctx.workspace, check.path);
      if ('refusal' in confined) return { passed: false, output: confined.refusal };
      const target = confined.path;
      try {
        const info = await stat(target);
        const kind = info.isDirectory() ? 'folder' : `file, ${info.size} bytes`;
        return { passed: check.exists, output: `exists (${kind}): ${target}` };
      } catch (error) {
        if (isMissingFile(error)) return { passed: !check.exists, output: `not found: ${target}` };
        return { passed: false, output: describeFileError(error, target) };
      }
    }),
};
