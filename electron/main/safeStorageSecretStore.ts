import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { AgentDeskError } from '../runtime/errors.js';
import { writeFileAtomicSync } from '../runtime/secrets/atomicFile.js';
import { MapSecretStore } from '../runtime/secrets/mapSecretStore.js';

/** The slice of Electron's `safeStorage` the store uses (OS keychain / DPAPI / libsecret). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: which backend encrypts; `basic_text` means a hard-coded key (no keyring). */
  getSelectedStorageBackend?(): string;
}

/** The file name under the data home. */
export const SAFE_SECRETS_FILE = 'secrets.safe.json';

/** On disk: each value is its own OS-encrypted blob (base64); names stay readable for `list`. */
interface SafeFile {
  version: 1;
  secrets: Record<string, string>;
}

/**
 * True when safeStorage really protects values: encryption is available and, on Linux, backed
 * by a keyring rather than the fixed `basic_text` key (which would only obscure them).
 */
export function safeStorageUsable(storage: SafeStorageLike, platform: NodeJS.Platform): boolean {
  if (!storage.isEncryptionAvailable()) return false;
  if (platform !== 'linux') return true;
  const backend = storage.getSelectedStorageBackend?.() ?? 'unknown';
  return backend !== 'basic_text' && backend !== 'unknown';
}

/**
 * Secrets for the Electron app: values encrypted one by one with the OS-backed `safeStorage`,
 * kept in one 0600 file under the data home and written atomically. Values are decrypted only
 * in `get`, for the provider client or tool that needs them.
 */
export class SafeStorageSecretStore extends MapSecretStore {
  private readonly file: string;

  constructor(
    private readonly home: string,
    private readonly storage: SafeStorageLike,
  ) {
    super();
    this.file = path.join(home, SAFE_SECRETS_FILE);
  }

  protected override seal(value: string): string {
    if (!this.storage.isEncryptionAvailable())
      throw new AgentDeskError('unavailable', 'OS secret storage is not available: the key was not stored');
    return this.storage.encryptString(value).toString('base64');
  }

  protected override open(name: string, stored: string): string {
    try {
      return this.storage.decryptString(Buffer.from(stored, 'base64'));
    } catch (error) {
      throw new AgentDeskError('internal', `secret ${name} cannot be decrypted by this user's OS storage: ${(error as Error).message}`);
    }
  }

  protected load(): Record<string, string> {
    if (!existsSync(this.file)) return {};
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as SafeFile;
      if (parsed.version !== 1 || typeof parsed.secrets !== 'object' || parsed.secrets === null) throw new Error('unknown format');
      return { ...parsed.secrets };
    } catch (error) {
      throw new AgentDeskError('internal', `${this.file} is not readable: ${(error as Error).message}`);
    }
  }

  protected save(secrets: Record<string, string>): void {
    mkdirSync(this.home, { recursive: true });
    const file: SafeFile = { version: 1, secrets };
    writeFileAtomicSync(this.file, Buffer.from(JSON.stringify(file, null, 2)), { mode: 0o600 });
  }
}
