import { describeFetchError, fetchForCheck } from './httpRequest.js';
import { measureCheck, observed } from './measure.js';
import type { CheckOf, Verifier } from './types.js';

/** `http_status`: a GET or HEAD answers with the expected status (one or any of a list). */
export const httpStatusVerifier: Verifier<CheckOf<'http_status'>> = {
  type: 'http_status',
  run: (check, ctx) =>
    measureCheck(check, async () => {
      const expected = Array.isArray(check.status) ? check.status : [check.status];
      let response: Response;
      try {
        response = await fetchForCheck(check.url, {
          method: check.method,
          timeoutMs: check.timeoutMs,
          signal: ctx.signal,
          ...(ctx.permitUrl && { permitUrl: ctx.permitUrl }),
        });
      } catch (error) {
        return { passed: false, output: describeFetchError(error, check.timeoutMs) };
      }
      // Only the status matters; release the connection without reading the body.
      await response.body?.cancel().catch(() => undefined);
      const passed = expected.includes(response.status);
      const seen = `${check.method} ${check.url} → ${response.status} ${response.statusText}`.trimEnd();
      const params = { request: `${check.method} ${check.url}`, status: response.status };
      return passed
        ? observed(true, seen, 'check.httpStatus', params)
        : observed(false, `${seen} (expected ${expected.join(' or ')})`, 'check.httpStatusUnexpected', {
            ...params,
            expected: expected.join(' / '),
          });
    }),
};
