import { readJsonFile, writeJsonFileAtomic } from './json-file';
import { z } from 'zod';

/**
 * Where an API key typed into the UI is kept. The desktop app encrypts it with Electron's
 * safeStorage; serve mode has no OS keychain to lean on, so it keeps the key for the run only
 * rather than writing it to disk in clear.
 */
export interface SecretStore {
  readonly kind: 'safeStorage' | 'memory';
  get(name: string): string | null;
  set(name: string, value: string | null): void;
}

export class MemorySecretStore implements SecretStore {
  readonly kind = 'memory' as const;
  private readonly values = new Map<string, string>();

  get(name: string): string | null {
    return this.values.get(name) ?? null;
  }

  set(name: string, value: string | null): void {
    if (value === null) this.values.delete(name);
    else this.values.set(name, value);
  }
}

/** The subset of Electron's `safeStorage` the encrypted store needs; injected so tests can run in Node. */
export interface Encryptor {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

const SecretsFile = z.record(z.string(), z.string());

/** Secrets encrypted by the OS (Keychain, DPAPI, libsecret) and stored base64 in one 0600 file. */
export class EncryptedFileSecretStore implements SecretStore {
  readonly kind = 'safeStorage' as const;

  constructor(
    private readonly file: string,
    private readonly encryptor: Encryptor,
  ) {}

  get(name: string): string | null {
    const read = readJsonFile(this.file, SecretsFile);
    if (read.kind !== 'ok') return null;
    const encoded = read.value[name];
    if (!encoded || !this.encryptor.isEncryptionAvailable()) return null;
    try {
      return this.encryptor.decryptString(Buffer.from(encoded, 'base64'));
    } catch {
      return null;
    }
  }

  set(name: string, value: string | null): void {
    const read = readJsonFile(this.file, SecretsFile);
    const all = read.kind === 'ok' ? { ...read.value } : {};
    if (value === null) delete all[name];
    else all[name] = this.encryptor.encryptString(value).toString('base64');
    writeJsonFileAtomic(this.file, all, 0o600);
  }
}
