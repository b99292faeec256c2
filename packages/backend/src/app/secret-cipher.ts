import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from "node:crypto";
import { link, open, readFile, unlink } from "node:fs/promises";

/**
 * How a host keeps secrets unreadable on disk. The desktop app builds one on Electron's
 * safeStorage (the OS keychain holds the key); the browser host uses `keyFileCipher`.
 */
export interface SecretCipher {
  encrypt(plain: string): Uint8Array;
  /** Throws when the bytes were not made by this cipher (another key, or tampered with). */
  decrypt(bytes: Uint8Array): string;
}

const FORMAT_VERSION = 1;
const SALT_BYTES = 16;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const HEADER_BYTES = 1 + SALT_BYTES + IV_BYTES;

/**
 * AES-256-GCM with a key derived from `passphrase` by scrypt: a random IV per secret, and GCM's
 * tag so a wrong key or a changed byte is an error, never garbage. Layout: version, salt, IV,
 * ciphertext, tag. scrypt is slow on purpose, so one salt is drawn per cipher and its key reused
 * for every encryption; decryption keeps the keys of the salts it has met.
 */
export function passphraseCipher(passphrase: string | Uint8Array): SecretCipher {
  if (passphrase.length === 0) throw new Error("passphraseCipher: the passphrase is empty");
  const keys = new Map<string, Buffer>();
  const keyFor = (salt: Buffer): Buffer => {
    const id = salt.toString("hex");
    let key = keys.get(id);
    if (!key) {
      key = scryptSync(passphrase, salt, KEY_BYTES);
      keys.set(id, key);
    }
    return key;
  };
  const ownSalt = randomBytes(SALT_BYTES);
  return {
    encrypt(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", keyFor(ownSalt), iv);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return Buffer.concat([Buffer.of(FORMAT_VERSION), ownSalt, iv, body, cipher.getAuthTag()]);
    },
    decrypt(bytes) {
      const data = Buffer.from(bytes);
      if (data.length < HEADER_BYTES + TAG_BYTES || data[0] !== FORMAT_VERSION) {
        throw new Error("not a secret encrypted by TailLab's passphrase cipher");
      }
      const salt = data.subarray(1, 1 + SALT_BYTES);
      const iv = data.subarray(1 + SALT_BYTES, HEADER_BYTES);
      const decipher = createDecipheriv("aes-256-gcm", keyFor(salt), iv);
      decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
      try {
        const body = data.subarray(HEADER_BYTES, data.length - TAG_BYTES);
        return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
      } catch (error) {
        throw new Error("the secret cannot be decrypted with this key", { cause: error });
      }
    },
  };
}

/**
 * A passphrase cipher whose key is 32 random bytes in the file at `path`, created with mode 0600
 * (owner only) when missing: for hosts without an OS keychain. The file is written beside its
 * place and linked in, so a crash never leaves half a key and two starts never make two keys.
 */
export async function keyFileCipher(path: string): Promise<SecretCipher> {
  const existing = await readKeyFile(path);
  if (existing) return passphraseCipher(existing);
  const temporary = `${path}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
  const file = await open(temporary, "wx", 0o600);
  try {
    await file.writeFile(randomBytes(KEY_BYTES));
    await file.sync();
  } finally {
    await file.close();
  }
  try {
    await link(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    await unlink(temporary);
  }
  const key = await readKeyFile(path);
  if (!key) throw new Error(`${path}: the key file vanished while it was created`);
  return passphraseCipher(key);
}

async function readKeyFile(path: string): Promise<Buffer | null> {
  let key: Buffer;
  try {
    key = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  if (key.length !== KEY_BYTES) {
    throw new Error(
      `${path}: expected a key of ${KEY_BYTES} bytes, found ${key.length}; secrets saved with it cannot be read — move it away and enter the secrets again`,
    );
  }
  return key;
}
