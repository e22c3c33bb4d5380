import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { fileErrorObservation, refusedObservation } from './fileAccess.js';
import { measureCheck, observed } from './measure.js';
import type { CheckOf, Verifier } from './types.js';
import { confineToWorkspace } from './workspacePath.js';

/** `file_sha256`: a file's SHA-256 equals the expected digest (hex, any case). */
export const fileSha256Verifier: Verifier<CheckOf<'file_sha256'>> = {
  type: 'file_sha256',
  run: (check, ctx) =>
    measureCheck(check, async () => {
      const confined = await confineToWorkspace(ctx.workspace, check.path);
      if ('refusal' in confined) return refusedObservation(confined.refusal);
      const target = confined.path;
      let actual: string;
      try {
        actual = await sha256Of(target, ctx.signal);
      } catch (error) {
        return fileErrorObservation(error, target);
      }
      const expected = check.sha256.toLowerCase();
      return actual === expected
        ? observed(true, `sha256 ${actual}`, 'check.sha256', { actual })
        : observed(false, `sha256 ${actual} (expected ${expected})`, 'check.sha256Mismatch', { actual, expected });
    }),
};

// Streamed so large artifacts are hashed without loading them into memory.
async function sha256Of(file: string, signal: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash, { signal });
  return hash.digest('hex');
}
