import {
  createCipheriv,
  createDecipheriv,
  randomBytes,
  scryptSync,
  type ScryptOptions,
} from "node:crypto";
import { chmod, link, open, readFile, unlink } from "node:fs/promises";

/**
 * How a host keeps secrets unreadable on disk. The desktop app builds one on Electron's
 * safeStorage (the OS keychain holds the key); the browser host uses `keyFileCipher`.
 */
export interface SecretCipher {
  /** What holds the key, as messages name it: "the OS keychain", "the key file …". */
  readonly keySource: string;
  encrypt(plain: string): Uint8Array;
  /** Throws when the bytes were not made by this cipher (another key, or tampered with). */
  decrypt(bytes: Uint8Array): string;
  /**
   * Whether bytes this cipher has just decrypted should be encrypted again, in its current
   * format; a cipher without it has one format only.
   */
  needsResealing?(bytes: Uint8Array): boolean;
}

/**
 * scrypt's cost by format version. 1: Node's defaults (N = 2^14, r = 8, p = 1), what secrets
 * were sealed with first. 2: the OWASP password-storage cheat sheet's minimum for scrypt,
 * N = 2^17 (128 MiB), r = 8, p = 1 — about a quarter of a second per key on a laptop.
 */
const SCRYPT_COSTS: Readonly<Record<number, ScryptOptions>> = {
  1: {},
  2: { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 },
};
const FORMAT_VERSION = 2;
const SALT_BYTES = 16;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const HEADER_BYTES = 1 + SALT_BYTES + IV_BYTES;

/**
 * AES-256-GCM with a key derived from `passphrase` by scrypt: a random IV per secret, and GCM's
 * tag so a wrong key or a changed byte is an error, never garbage. Layout: format version, salt,
 * IV, ciphertext, tag; the version says how costly the scrypt was (SCRYPT_COSTS), so secrets of
 * an older version still open and are then sealed again (`needsResealing`). scrypt is slow on
 * purpose, so one salt serves every secret: the salt of the first current secret decrypted, else
 * one drawn at the first encryption — a file of secrets costs one derivation per start.
 * `keySource` names the passphrase in messages.
 */
export function passphraseCipher(
  passphrase: string | Uint8Array,
  keySource = "the passphrase",
): SecretCipher {
  if (passphrase.length === 0) throw new Error("passphraseCipher: the passphrase is empty");
  const keys = new Map<string, Buffer>();
  const keyFor = (version: number, salt: Buffer): Buffer => {
    const id = `${version}:${salt.toString("hex")}`;
    let key = keys.get(id);
    if (!key) {
      key = scryptSync(passphrase, salt, KEY_BYTES, SCRYPT_COSTS[version]);
      keys.set(id, key);
    }
    return key;
  };
  let sealingSalt: Buffer | null = null;
  const parse = (bytes: Uint8Array) => {
    const data = Buffer.from(bytes);
    const version = data[0] ?? 0;
    if (data.length < HEADER_BYTES + TAG_BYTES || !Object.hasOwn(SCRYPT_COSTS, version)) {
      throw new Error("not a secret encrypted by TailLab's passphrase cipher");
    }
    return {
      version,
      salt: data.subarray(1, 1 + SALT_BYTES),
      iv: data.subarray(1 + SALT_BYTES, HEADER_BYTES),
      body: data.subarray(HEADER_BYTES, data.length - TAG_BYTES),
      tag: data.subarray(data.length - TAG_BYTES),
    };
  };
  return {
    keySource,
    encrypt(plain) {
      sealingSalt ??= randomBytes(SALT_BYTES);
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", keyFor(FORMAT_VERSION, sealingSalt), iv);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return Buffer.concat([Buffer.of(FORMAT_VERSION), sealingSalt, iv, body, cipher.getAuthTag()]);
    },
    decrypt(bytes) {
      const { version, salt, iv, body, tag } = parse(bytes);
      const decipher = createDecipheriv("aes-256-gcm", keyFor(version, salt), iv);
      decipher.setAuthTag(tag);
      let plain: string;
      try {
        plain = Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
      } catch (error) {
        throw new Error(`the secret cannot be decrypted with ${keySource}`, { cause: error });
      }
      if (version === FORMAT_VERSION) sealingSalt ??= Buffer.from(salt);
      return plain;
    },
    needsResealing(bytes) {
      const { version, salt } = parse(bytes);
      return version !== FORMAT_VERSION || sealingSalt === null || !salt.equals(sealingSalt);
    },
  };
}

/**
 * A passphrase cipher whose key is 32 random bytes in the file at `path`, created with mode 0600
 * (owner only) when missing, and set back to 0600 when found looser: for hosts without an OS
 * keychain. The file is written beside its
 * place and linked in, so a crash never leaves half a key and two starts never make two keys.
 */
export async function keyFileCipher(path: string): Promise<SecretCipher> {
  const keySource = `the key file ${path}`;
  const existing = await readKeyFile(path);
  if (existing) {
    // Its owner's only, also when it was copied in or restored with a looser mode.
    await chmod(path, 0o600);
    return passphraseCipher(existing, keySource);
  }
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
  return passphraseCipher(key, keySource);
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
