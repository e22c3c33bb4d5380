import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  SAFE_SECRETS_FILE,
  SafeStorageSecretStore,
  safeStorageUsable,
  type SafeStorageLike,
} from '../../../electron/main/safeStorageSecretStore.js';
import { tempDir } from '../../support/runtime.js';

/**
 * Electron's safeStorage is not on this machine; this is a real AES-256-GCM cipher with the
 * same interface, its key held in memory the way the OS keychain holds safeStorage's.
 */
function keychainCipher(available = true, backend = 'gnome_libsecret'): SafeStorageLike {
  const key = randomBytes(32);
  return {
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => backend,
    encryptString(text) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), data]);
    },
    decryptString(blob) {
      const decipher = createDecipheriv('aes-256-gcm', key, blob.subarray(0, 12));
      decipher.setAuthTag(blob.subarray(12, 28));
      return Buffer.concat([decipher.update(blob.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

const VALUE = 'sk-live-0123456789abcdef-electron';
let home: string;
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('SafeStorageSecretStore', () => {
  it('keeps each value as an encrypted blob in a 0600 file, lists names only, round-trips and deletes', () => {
    home = tempDir();
    const storage = keychainCipher();
    const store = new SafeStorageSecretStore(home, storage);
    store.set('openai-key', VALUE);
    store.set('anthropic-key', 'second-value');
    const file = path.join(home, SAFE_SECRETS_FILE);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(VALUE);
    expect(text).not.toContain('second-value');
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const reopened = new SafeStorageSecretStore(home, storage);
    expect(reopened.list()).toEqual(['anthropic-key', 'openai-key']);
    expect(reopened.get('openai-key')).toBe(VALUE);
    expect(reopened.get('missing')).toBeUndefined();
    expect(reopened.delete('anthropic-key')).toBe(true);
    expect(reopened.delete('anthropic-key')).toBe(false);
    expect(new SafeStorageSecretStore(home, storage).list()).toEqual(['openai-key']);
  });

  it('another user’s keychain cannot read the blobs: a typed error, not garbage', () => {
    home = tempDir();
    new SafeStorageSecretStore(home, keychainCipher()).set('openai-key', VALUE);
    expect(() => new SafeStorageSecretStore(home, keychainCipher()).get('openai-key')).toThrow(
      expect.objectContaining({ code: 'internal', message: expect.stringContaining('cannot be decrypted') }),
    );
  });

  it('refuses to store when OS encryption is unavailable, and is chosen only where it really protects', () => {
    home = tempDir();
    const off = keychainCipher(false);
    expect(() => new SafeStorageSecretStore(home, off).set('k', VALUE)).toThrow(expect.objectContaining({ code: 'unavailable' }));
    expect(safeStorageUsable(off, 'darwin')).toBe(false);
    expect(safeStorageUsable(keychainCipher(true), 'darwin')).toBe(true);
    expect(safeStorageUsable(keychainCipher(true, 'kwallet5'), 'linux')).toBe(true);
    // Linux without a keyring encrypts with a fixed key: main then keeps the runtime's own encrypted file.
    expect(safeStorageUsable(keychainCipher(true, 'basic_text'), 'linux')).toBe(false);
  });
});
