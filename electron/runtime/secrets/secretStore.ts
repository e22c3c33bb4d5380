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
}
