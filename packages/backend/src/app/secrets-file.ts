import { APP_FILES_SCHEMA_VERSION, SecretsFileSchema, type SecretsFile } from "@taillab/api";
import { writeJsonAtomically } from "@taillab/store";
import { chmod } from "node:fs/promises";
import type { SecretCipher } from "./secret-cipher.ts";
import { createTaskQueue } from "./task-queue.ts";
import { readVersionedFile } from "./versioned-file.ts";

/** secrets.json is its owner's only: ciphertext, but nobody else's to copy and attack. */
const OWNER_ONLY = 0o600;

/**
 * The secret access keys of saved endpoints, by endpoint id, each encrypted by the host's cipher
 * (never plaintext on disk) in one file replaced atomically. Secrets are decrypted only inside
 * the backend (a connection test, a run, and the check when the file opens) and never leave it.
 */
export interface SecretsFileStore {
  has(id: string): boolean;
  /** null when none is saved; throws a readable error when it cannot be decrypted. */
  get(id: string): string | null;
  set(id: string, secret: string): Promise<void>;
  remove(id: string): Promise<void>;
  /** Ids whose secret the cipher could not decrypt when the file was opened (another key). */
  readonly unreadable: readonly string[];
}

/**
 * Opens the file and checks it at once, so a changed key is told at start rather than when a
 * secret is first used: every secret is decrypted; those the key cannot open are listed in
 * `unreadable` (and kept, in case the old key comes back); those sealed in an older format are
 * sealed again. The file is made its owner's only, as it is on every write.
 */
export async function openSecretsFile(
  path: string,
  cipher: SecretCipher,
): Promise<SecretsFileStore> {
  const file = await readVersionedFile(path, SecretsFileSchema, APP_FILES_SCHEMA_VERSION);
  const write = (next: SecretsFile["secrets"]) =>
    writeJsonAtomically(
      path,
      { schemaVersion: APP_FILES_SCHEMA_VERSION, secrets: next } satisfies SecretsFile,
      undefined,
      OWNER_ONLY,
    );
  const seal = (secret: string) => Buffer.from(cipher.encrypt(secret)).toString("base64");
  const checked = checkSecrets(file?.secrets ?? {}, cipher, seal);
  let secrets = checked.secrets;
  if (checked.resealed) await write(secrets);
  else if (file) await chmod(path, OWNER_ONLY);
  const inTurn = createTaskQueue();
  const change = (edit: (current: SecretsFile["secrets"]) => SecretsFile["secrets"]) =>
    inTurn(async () => {
      const next = edit(secrets);
      await write(next);
      secrets = next;
    });
  return {
    unreadable: checked.unreadable,
    has: (id) => Object.hasOwn(secrets, id),
    get(id) {
      const encrypted = secrets[id];
      if (encrypted === undefined) return null;
      try {
        return cipher.decrypt(Buffer.from(encrypted, "base64"));
      } catch (error) {
        throw new Error(
          `the saved secret of endpoint "${id}" cannot be decrypted with ${cipher.keySource} (it was saved under another key, e.g. by another user or machine, or the key changed); edit the endpoint and enter its secret again`,
          { cause: error },
        );
      }
    },
    set: (id, secret) => change((current) => ({ ...current, [id]: seal(secret) })),
    async remove(id) {
      if (!Object.hasOwn(secrets, id)) return;
      await change(({ [id]: _removed, ...rest }) => rest);
    },
  };
}

/** Each saved secret decrypted once: which the key cannot open, and which to seal again. */
function checkSecrets(
  saved: SecretsFile["secrets"],
  cipher: SecretCipher,
  seal: (secret: string) => string,
): { secrets: SecretsFile["secrets"]; unreadable: string[]; resealed: boolean } {
  const secrets = { ...saved };
  const unreadable: string[] = [];
  let resealed = false;
  for (const [id, encoded] of Object.entries(saved)) {
    const bytes = Buffer.from(encoded, "base64");
    let plain: string;
    try {
      plain = cipher.decrypt(bytes);
    } catch {
      unreadable.push(id);
      continue;
    }
    if (cipher.needsResealing?.(bytes)) {
      secrets[id] = seal(plain);
      resealed = true;
    }
  }
  return { secrets, unreadable, resealed };
}
