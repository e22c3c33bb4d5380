import { canonicalJson, sha256Hex } from '../digest.js';
import { AgentDeskError } from '../errors.js';

/** A stored first answer to a side-effecting call, keyed by method + idempotency key. */
export interface IdempotencyRecord {
  /** `paramsDigest` of the params the key was first used with. */
  paramsDigest: string;
  /** The result that was sent back the first time. */
  response: unknown;
}

/** Port: where the dispatcher remembers first answers. The store layer provides a SQLite one. */
export interface IdempotencyStore {
  get(method: string, key: string): IdempotencyRecord | undefined;
  put(method: string, key: string, paramsDigest: string, response: unknown): void;
}

/** sha256 (hex) of the canonical JSON of `params`: object keys sorted, so key order never matters. */
export function paramsDigest(params: unknown): string {
  return sha256Hex(canonicalJson(params));
}

/** Runs side-effecting calls at most once per (method, key), replaying the first answer. */
export interface IdempotencyGuard {
  /**
   * Returns the stored answer for a repeat with the same params, throws `conflict` for a repeat
   * with different ones, and otherwise runs `call` and stores its result (errors are not stored,
   * so a failed call can be retried with the same key).
   */
  run(method: string, key: string, digest: string, call: () => Promise<unknown>): Promise<unknown>;
}

/** Wraps a store; a repeat that arrives while the first call still runs waits for its answer. */
export function createIdempotencyGuard(
  store: IdempotencyStore,
  onStoreError: (error: unknown, method: string, key: string) => void,
): IdempotencyGuard {
  const inFlight = new Map<string, { digest: string; answer: Promise<unknown> }>();

  const settle = async (method: string, key: string, digest: string, call: () => Promise<unknown>) => {
    const result = await call();
    try {
      store.put(method, key, digest, result);
    } catch (error) {
      // The effect already happened: answer this call anyway, and let the operator know.
      onStoreError(error, method, key);
    }
    return result;
  };

  return {
    async run(method, key, digest, call) {
      const stored = store.get(method, key);
      if (stored) return replayOrConflict(stored.paramsDigest, digest, method, key, stored.response);
      const slot = JSON.stringify([method, key]);
      const running = inFlight.get(slot);
      if (running) return replayOrConflict(running.digest, digest, method, key, running.answer);
      const answer = settle(method, key, digest, call);
      inFlight.set(slot, { digest, answer });
      try {
        return await answer;
      } finally {
        inFlight.delete(slot);
      }
    },
  };
}

function replayOrConflict<T>(firstDigest: string, digest: string, method: string, key: string, answer: T): T {
  if (firstDigest === digest) return answer;
  throw new AgentDeskError(
    'conflict',
    `idempotency key '${key}' was already used for ${method} with different params; ` + 'use a new key for a different request',
    { method, idempotencyKey: key },
  );
}
