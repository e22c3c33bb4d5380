import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSecretStore } from '../../../../electron/capabilities/secrets/fileSecretStore.js';
import { tempDir } from '../../../support/runtime.js';

const VALUE = 'sk-live-0123456789abcdef-unit';
let home: string;
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('FileSecretStore', () => {
  it('round-trips values across instances, lists names only and never writes a value in clear', () => {
    home = tempDir();
    const store = new FileSecretStore(home);
    store.set('openai-key', VALUE);
    store.set('other', 'second-value');
    const reopened = new FileSecretStore(home);
    expect(reopened.get('openai-key')).toBe(VALUE);
    expect(reopened.list()).toEqual(['openai-key', 'other']);
    expect(reopened.delete('other')).toBe(true);
    expect(reopened.delete('other')).toBe(false);
    expect(new FileSecretStore(home).list()).toEqual(['openai-key']);
    for (const file of readdirSync(home)) {
      expect(readFileSync(path.join(home, file)).includes(Buffer.from(VALUE)), file).toBe(false);
    }
    // Only the key and the sealed file remain: temp files are gone after the atomic renames.
    expect(readdirSync(home).sort()).toEqual(['secrets.enc.json', 'secrets.key']);
  });

  it('keeps the key and the sealed file readable by the owner only', () => {
    home = tempDir();
    new FileSecretStore(home).set('a', VALUE);
    expect(statSync(path.join(home, 'secrets.key')).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(home, 'secrets.enc.json')).mode & 0o777).toBe(0o600);
    expect(readFileSync(path.join(home, 'secrets.key'))).toHaveLength(32);
  });

  it('refuses a tampered file or a replaced key with a clear error instead of returning garbage', () => {
    home = tempDir();
    new FileSecretStore(home).set('a', VALUE);
    const sealedFile = path.join(home, 'secrets.enc.json');
    const sealed = JSON.parse(readFileSync(sealedFile, 'utf8')) as { data: string };
    const bytes = Buffer.from(sealed.data, 'base64');
    bytes[0] = bytes[0]! ^ 1;
    writeFileSync(sealedFile, JSON.stringify({ ...sealed, data: bytes.toString('base64') }));
    expect(() => new FileSecretStore(home).get('a')).toThrow(/cannot be decrypted .*wrong key or tampered/);
    rmSync(path.join(home, 'secrets.key'));
    expect(() => new FileSecretStore(home).set('b', VALUE)).toThrow(/secrets\.key is missing/);
  });
});
