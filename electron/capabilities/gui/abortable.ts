import { ToolError } from '../../runtime/tools/types.js';

/**
 * Resolves with `work` unless `signal` aborts first (pause/cancel): the task stops waiting at
 * once; the in-flight sandboxd call ends with the sandbox when the task ends.
 */
export function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new ToolError('aborted: the task was paused or cancelled', false, 'aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ToolError('aborted: the task was paused or cancelled', false, 'aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
