import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { AgentDeskError } from '../../runtime/errors.js';
import { writeFileAtomicSync } from '../../runtime/secrets/atomicFile.js';
import { MapSecretStore } from '../../runtime/secrets/mapSecretStore.js';

const KEY_FILE = 'secrets.key';
const DATA_FILE = 'secrets.enc.json';
const KEY_BYTES = 32;
const IV_BYTES = 12;
/** Binds the ciphertext to its purpose (a blob from another file does not decrypt here). */
const AAD = Buffer.from('agent-desk secrets v1');

/** The file on disk: one AES-256-GCM blob of the whole name → value map. */
interface SealedFile {
  version: 1;
  iv: string;
  tag: string;
  data: string;
}

/**
 * Secrets for the headless runtime: one AES-256-GCM encrypted file under the data home, with
 * its key in a separate 0600 file beside it. Both are written atomically (temp file, fsync,
 * rename), so a crash leaves the old or the new secrets, never a torn file. The Electron main
 * process uses OS storage instead.
 */
export class FileSecretStore extends MapSecretStore {
  private readonly keyFile: string;
  private readonly dataFile: string;

  constructor(private readonly home: string) {
    super();
    this.keyFile = path.join(home, KEY_FILE);
    this.dataFile = path.join(home, DATA_FILE);
  }

  /** The sealed file's identity and size: every write replaces it (rename), so this changes. */
  version(): string {
    try {
      const stat = statSync(this.dataFile);
      return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    } catch {
      return 'none';
    }
  }

  protected load(): Record<string, string> {
    if (!existsSync(this.dataFile)) return {};
    let sealed: SealedFile;
    try {
      sealed = JSON.parse(readFileSync(this.dataFile, 'utf8')) as SealedFile;
    } catch (error) {
      throw new AgentDeskError('internal', `${this.dataFile} is not readable: ${(error as Error).message}`);
    }
    const key = this.key(false);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
      decipher.setAAD(AAD);
      decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
      const clear = Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]);
      return JSON.parse(clear.toString('utf8')) as Record<string, string>;
    } catch {
      throw new AgentDeskError('internal', `${this.dataFile} cannot be decrypted with ${this.keyFile} (wrong key or tampered file)`);
    }
  }

  protected save(all: Record<string, string>): void {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key(true), iv);
    cipher.setAAD(AAD);
    const data = Buffer.concat([cipher.update(JSON.stringify(all), 'utf8'), cipher.final()]);
    const sealed: SealedFile = {
      version: 1,
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    };
    writeFileAtomicSync(this.dataFile, Buffer.from(JSON.stringify(sealed)), { mode: 0o600 });
  }

  /** The key, created on the first write (a missing key with existing data is an error, not a new key). */
  private key(create: boolean): Buffer {
    if (existsSync(this.keyFile)) {
      const key = readFileSync(this.keyFile);
      if (key.length !== KEY_BYTES) throw new AgentDeskError('internal', `${this.keyFile} is not a ${KEY_BYTES}-byte key`);
      return key;
    }
    if (!create || existsSync(this.dataFile))
      throw new AgentDeskError('internal', `${this.keyFile} is missing: the stored secrets cannot be read`);
    mkdirSync(this.home, { recursive: true, mode: 0o700 });
    // Exclusive: when two processes create the key at once, both end up using the first one.
    writeFileAtomicSync(this.keyFile, randomBytes(KEY_BYTES), { mode: 0o600, exclusive: true });
    return this.key(false);
  }
}
