import type { SecretFeed } from '../trace/redactor.js';

/**
 * Where provider keys and other secrets live. Values never enter SQLite, traces, logs or the
 * renderer: callers read a value only to hand it to the SDK or tool that needs it. The headless
 * runtime keeps them in an encrypted file; the Electron main process in OS storage (safeStorage).
 */
export interface SecretStore {
  set(name: string, value: string): void;
  /** The clear value, for the one caller that must use it (a provider client, a tool input). */
  get(name: string): string | undefined;
  /** Names only: values are never listed. */
  list(): string[];
  delete(name: string): boolean;
  /** Changes whenever the stored values may have changed (e.g. another process stored one). */
  version?(): string;
}

/** A store as the redactor follows it: every value, re-read when the store's version changes. */
export function secretFeed(store: SecretStore): SecretFeed {
  return {
    version: () => store.version?.() ?? 'unversioned',
    entries: () =>
      store.list().flatMap((name) => {
        const value = store.get(name);
        return value === undefined ? [] : [[name, value] as const];
      }),
  };
}
