import { coded, type CodedMessage, type CredentialsRef, type StoredEndpoint } from "@taillab/api";
import type { ResolvedCredentials } from "@taillab/engine";
import { keysFromEnv, type KeychainLookup } from "../credentials.ts";

/** An endpoint's keys as a request needs them, or why there are none. */
export type EndpointKeys =
  | { kind: "keys"; keys: ResolvedCredentials }
  | { kind: "anonymous" }
  | { kind: "unavailable"; reason: CodedMessage };

/** `secret`: the saved secret of stored credentials (a draft's, when it brings one). */
export function endpointKeys(
  credentials: StoredEndpoint["credentials"],
  secret: string | null,
  env: Readonly<Record<string, string | undefined>>,
): EndpointKeys {
  switch (credentials.kind) {
    case "anonymous":
      return { kind: "anonymous" };
    case "stored":
      return secret
        ? { kind: "keys", keys: { accessKeyId: credentials.accessKeyId, secretAccessKey: secret } }
        : { kind: "unavailable", reason: coded("noSavedSecret") };
    case "env": {
      const found = keysFromEnv(credentials, env);
      if (found.kind === "keys") return found;
      if (found.kind === "refused") return { kind: "unavailable", reason: found.reason };
      const [one = "", two] = found.names;
      return {
        kind: "unavailable",
        reason: two ? coded("variablesUnset", { one, two }) : coded("variableUnset", { name: one }),
      };
    }
  }
}

/**
 * How a run spec names an endpoint's keys: stored ones by a keychain entry (the endpoint's id,
 * resolved by `keychainLookup`), so the spec, and every result made from it, holds no secret.
 */
export function credentialsRefOf(
  credentials: StoredEndpoint["credentials"],
  id: string,
): CredentialsRef {
  switch (credentials.kind) {
    case "stored":
      return { kind: "keychain", id };
    case "env":
      return {
        kind: "env",
        accessKeyIdVar: credentials.accessKeyIdVar,
        secretAccessKeyVar: credentials.secretAccessKeyVar,
      };
    case "anonymous":
      return { kind: "anonymous" };
  }
}

/** Keychain entries are saved endpoints: the access key id from the endpoint, the secret decrypted. */
export function keychainLookup(
  findEndpoint: (id: string) => StoredEndpoint | undefined,
  savedSecret: (id: string) => string | null,
): KeychainLookup {
  return async (id) => {
    const endpoint = findEndpoint(id);
    if (endpoint?.credentials.kind !== "stored") return null;
    const secretAccessKey = savedSecret(id);
    return secretAccessKey
      ? { accessKeyId: endpoint.credentials.accessKeyId, secretAccessKey }
      : null;
  };
}
