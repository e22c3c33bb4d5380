import type { SecretStore } from './secretStore.js';

/**
 * The name → stored-value map logic every file-backed secret store shares: each operation loads
 * the whole map, changes it and saves it back. Subclasses say how the map is kept (`load`/`save`)
 * and, when values are sealed one by one, how a value is sealed and opened (`seal`/`open`).
 */
export abstract class MapSecretStore implements SecretStore {
  /** The whole map as stored; an absent store is an empty map. */
  protected abstract load(): Record<string, string>;
  protected abstract save(all: Record<string, string>): void;

  /** The stored form of a clear value (the clear value itself when the whole map is sealed). */
  protected seal(value: string): string {
    return value;
  }

  /** The clear value of a stored one. */
  protected open(_name: string, stored: string): string {
    return stored;
  }

  set(name: string, value: string): void {
    const stored = this.seal(value);
    const all = this.load();
    all[name] = stored;
    this.save(all);
  }

  get(name: string): string | undefined {
    const all = this.load();
    return Object.hasOwn(all, name) ? this.open(name, all[name] ?? '') : undefined;
  }

  list(): string[] {
    return Object.keys(this.load()).sort();
  }

  delete(name: string): boolean {
    const all = this.load();
    if (!Object.hasOwn(all, name)) return false;
    delete all[name];
    this.save(all);
    return true;
  }
}
