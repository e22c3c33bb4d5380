import { canonicalJson, sha256Hex } from '../digest.js';
import { AgentDeskError } from '../errors.js';

/** A stored first answer to a side-effecting call, keyed by method + idempotency key. */
export interface IdempotencyRecord {
  /** `paramsDigest` of the params the key was first used with. */
  paramsDigest: string;
  /** The result that was sent back the first time. */
  response: unknown;
}

/** Port: where the dispatcher remembers first answers. The store layer provides one (SQLite or PostgreSQL). */
export interface IdempotencyStore {
  get(method: string, key: string): Promise<IdempotencyRecord | undefined>;
  put(method: string, key: string, paramsDigest: string, response: unknown): Promise<void>;
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

/**
 * Wraps a store; a repeat that arrives while the first call still runs waits for its answer.
 * The slot is taken before the store is read: a repeat arriving during that read (or while the
 * first answer is being stored) joins the first call instead of running the effect again.
 */
export function createIdempotencyGuard(
  store: IdempotencyStore,
  onStoreError: (error: unknown, method: string, key: string) => void,
): IdempotencyGuard {
  /** Per (method, key): the digest the answer belongs to (the stored one, or the first caller's) and the answer. */
  const inFlight = new Map<string, Promise<{ digest: string; answer: Promise<unknown> }>>();

  const settle = async (method: string, key: string, digest: string, call: () => Promise<unknown>) => {
    const result = await call();
    try {
      await store.put(method, key, digest, result);
    } catch (error) {
      // The effect already happened: answer this call anyway, and let the operator know.
      onStoreError(error, method, key);
    }
    return result;
  };

  const first = async (method: string, key: string, digest: string, call: () => Promise<unknown>) => {
    const stored = await store.get(method, key);
    if (stored) return { digest: stored.paramsDigest, answer: Promise.resolve(stored.response) };
    return { digest, answer: settle(method, key, digest, call) };
  };

  return {
    async run(method, key, digest, call) {
      const slot = JSON.stringify([method, key]);
      let entry = inFlight.get(slot);
      if (!entry) {
        const started = first(method, key, digest, call);
        entry = started;
        inFlight.set(slot, started);
        // Freed once the answer is stored (or failed: errors are not kept, so a retry runs again).
        void started
          .then(({ answer }) => answer)
          .catch(() => undefined)
          .finally(() => inFlight.delete(slot));
      }
      const { digest: firstDigest, answer } = await entry;
      return replayOrConflict(firstDigest, digest, method, key, answer);
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
