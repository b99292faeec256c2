import {
  coded,
  credentialVariableRefusal,
  isSecretPlaceholder,
  type CodedMessage,
  type CredentialsRef,
} from "@taillab/api";
import type { ResolvedCredentials } from "@taillab/engine";
import { InputError } from "./input-error.ts";

/** Looks up a keychain entry (the desktop app's safeStorage); hosts without one pass none. */
export type KeychainLookup = (id: string) => Promise<ResolvedCredentials | null>;

type Env = Readonly<Record<string, string | undefined>>;

export interface SecretSources {
  /** Environment variables, e.g. process.env plus values a host was given on its command line. */
  env: Env;
  keychain?: KeychainLookup;
}

type EnvReference = Omit<Extract<CredentialsRef, { kind: "env" }>, "kind">;

/**
 * The keys an env reference names, or why there are none: a name that may not hold credentials
 * (api's credential-variables.ts), which is then never read, a printed Secret's placeholder, or
 * the variables that are not set.
 */
export function keysFromEnv(
  reference: EnvReference,
  env: Env,
):
  | { kind: "keys"; keys: ResolvedCredentials }
  | { kind: "refused"; reason: CodedMessage }
  | { kind: "unset"; names: string[] } {
  const refused = credentialVariableRefusal(reference);
  if (refused) return { kind: "refused", reason: refused };
  const accessKeyId = env[reference.accessKeyIdVar];
  const secretAccessKey = env[reference.secretAccessKeyVar];
  if (!accessKeyId || !secretAccessKey) {
    const names = [reference.accessKeyIdVar, reference.secretAccessKeyVar];
    return { kind: "unset", names: names.filter((name) => !env[name]) };
  }
  const placeholder = [reference.accessKeyIdVar, reference.secretAccessKeyVar].find((name) =>
    isSecretPlaceholder(env[name] ?? ""),
  );
  if (placeholder !== undefined) {
    const value = env[placeholder] ?? "";
    return {
      kind: "refused",
      reason: coded("credentialPlaceholder", { name: placeholder, value }),
    };
  }
  const sessionToken = reference.sessionTokenVar ? env[reference.sessionTokenVar] : undefined;
  return {
    kind: "keys",
    keys: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) },
  };
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
      const found = keysFromEnv(reference, sources.env);
      if (found.kind === "keys") return found.keys;
      throw InputError.of(
        field,
        found.kind === "refused"
          ? found.reason
          : coded("noCredentials", { names: found.names.join(", ") }),
      );
    }
    case "keychain": {
      const found = sources.keychain ? await sources.keychain(reference.id) : null;
      if (!found) throw InputError.of(field, coded("noKeychainEntry", { id: reference.id }));
      return found;
    }
  }
}
