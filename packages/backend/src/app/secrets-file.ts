import { APP_FILES_SCHEMA_VERSION, SecretsFileSchema, type SecretsFile } from "@taillab/api";
import { writeJsonAtomically } from "@taillab/store";
import type { SecretCipher } from "./secret-cipher.ts";
import { createTaskQueue } from "./task-queue.ts";
import { readVersionedFile } from "./versioned-file.ts";

/**
 * The secret access keys of saved endpoints, by endpoint id, each encrypted by the host's cipher
 * (never plaintext on disk) in one file replaced atomically. Secrets are decrypted only when a
 * connection test or a run needs them and never leave the backend.
 */
export interface SecretsFileStore {
  has(id: string): boolean;
  /** null when none is saved; throws a readable error when it cannot be decrypted. */
  get(id: string): string | null;
  set(id: string, secret: string): Promise<void>;
  remove(id: string): Promise<void>;
}

export async function openSecretsFile(
  path: string,
  cipher: SecretCipher,
): Promise<SecretsFileStore> {
  const file = await readVersionedFile(path, SecretsFileSchema, APP_FILES_SCHEMA_VERSION);
  let secrets: SecretsFile["secrets"] = file?.secrets ?? {};
  const inTurn = createTaskQueue();
  const change = (edit: (current: SecretsFile["secrets"]) => SecretsFile["secrets"]) =>
    inTurn(async () => {
      const next = edit(secrets);
      await writeJsonAtomically(path, {
        schemaVersion: APP_FILES_SCHEMA_VERSION,
        secrets: next,
      } satisfies SecretsFile);
      secrets = next;
    });
  return {
    has: (id) => Object.hasOwn(secrets, id),
    get(id) {
      const encrypted = secrets[id];
      if (encrypted === undefined) return null;
      try {
        return cipher.decrypt(Buffer.from(encrypted, "base64"));
      } catch (error) {
        throw new Error(
          `the saved secret of endpoint "${id}" cannot be decrypted (it was saved under another key, e.g. by another user or machine); edit the endpoint and enter its secret again`,
          { cause: error },
        );
      }
    },
    set: (id, secret) =>
      change((current) => ({
        ...current,
        [id]: Buffer.from(cipher.encrypt(secret)).toString("base64"),
      })),
    async remove(id) {
      if (!Object.hasOwn(secrets, id)) return;
      await change(({ [id]: _removed, ...rest }) => rest);
    },
  };
}
