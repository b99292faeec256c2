import type { CredentialsRef } from "@taillab/api";
import type { ResolvedCredentials } from "@taillab/engine";
import { InputError } from "./input-error.ts";

/** Looks up a keychain entry (the desktop app's safeStorage); hosts without one pass none. */
export type KeychainLookup = (id: string) => Promise<ResolvedCredentials | null>;

export interface SecretSources {
  /** Environment variables, e.g. process.env plus values a host was given on its command line. */
  env: Readonly<Record<string, string | undefined>>;
  keychain?: KeychainLookup;
}

export async function resolveCredentials(
  reference: CredentialsRef,
  sources: SecretSources,
  field: string,
): Promise<ResolvedCredentials | null> {
  switch (reference.kind) {
    case "anonymous":
      return null;
    case "env": {
      const accessKeyId = sources.env[reference.accessKeyIdVar];
      const secretAccessKey = sources.env[reference.secretAccessKeyVar];
      if (!accessKeyId || !secretAccessKey) {
        const missing = [
          accessKeyId ? null : reference.accessKeyIdVar,
          secretAccessKey ? null : reference.secretAccessKeyVar,
        ].filter(Boolean);
        throw InputError.of(
          field,
          `no credentials: set ${missing.join(" and ")} (or pass -accessKey and -accessSecret)`,
        );
      }
      const sessionToken = reference.sessionTokenVar
        ? sources.env[reference.sessionTokenVar]
        : undefined;
      return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
    }
    case "keychain": {
      const found = sources.keychain ? await sources.keychain(reference.id) : null;
      if (!found) throw InputError.of(field, `no keychain entry "${reference.id}"`);
      return found;
    }
  }
}
