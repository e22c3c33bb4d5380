import { stat } from 'node:fs/promises';
import { fileErrorObservation, isMissingFile, refusedObservation } from './fileAccess.js';
import { measureCheck, observed } from './measure.js';
import type { CheckOf, Verifier } from './types.js';
import { confineToWorkspace } from './workspacePath.js';

/** `file_exists`: a path is present (a file or a folder), or with `exists: false` absent. */
export const fileExistsVerifier: Verifier<CheckOf<'file_exists'>> = {
  type: 'file_exists',
  run: (check, ctx) =>
    measureCheck(check, async () => {
      const confined = await confineToWorkspace(ctx.workspace, check.path);
      if ('refusal' in confined) return refusedObservation(confined.refusal);
      const target = confined.path;
      try {
        const info = await stat(target);
        const kind = info.isDirectory() ? 'folder' : `file, ${info.size} bytes`;
        const output = `exists (${kind}): ${target}`;
        return info.isDirectory()
          ? observed(check.exists, output, 'check.existsFolder', { path: target })
          : observed(check.exists, output, 'check.existsFile', { path: target, bytes: info.size });
      } catch (error) {
        if (isMissingFile(error)) return observed(!check.exists, `not found: ${target}`, 'check.notFound', { path: target });
        return fileErrorObservation(error, target);
      }
    }),
};
