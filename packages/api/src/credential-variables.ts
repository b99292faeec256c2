import { coded, messageOf, type CodedMessage } from "./coded-message.ts";
import { fieldError, type FieldError } from "./field-error.ts";

/**
 * Which environment variables an endpoint or a spec may name for its keys. Whoever writes a spec
 * or an endpoint (a spec file, the page of the browser host, a renderer in the desktop app)
 * chooses the names and the backend reads them, so the names are limited to credentials:
 * `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN` and the same ending after
 * another prefix (`MINIO_ACCESS_KEY_ID`, `LAB2_SECRET_ACCESS_KEY`). The prefix is upper-case
 * letters, digits and underscores, starting with a letter; `TAILLAB_…` is TailLab's own
 * (`TAILLAB_SECRETS_PASSPHRASE`) and is never a credential. Nothing else of the environment
 * (HOME, a CI token, a passphrase) can be read, or even tested for, through an endpoint.
 */
export const CREDENTIAL_VARIABLE_ENDINGS = {
  accessKeyIdVar: "ACCESS_KEY_ID",
  secretAccessKeyVar: "SECRET_ACCESS_KEY",
  sessionTokenVar: "SESSION_TOKEN",
} as const;

export type CredentialVariableRole = keyof typeof CREDENTIAL_VARIABLE_ENDINGS;

const PREFIX = /^[A-Z][A-Z0-9_]*_$/;
const RESERVED_PREFIX = "TAILLAB_";

/** Why `name` may not hold this part of the keys, or null when it may. */
export function credentialVariableProblem(
  role: CredentialVariableRole,
  name: string,
): CodedMessage | null {
  const ending = CREDENTIAL_VARIABLE_ENDINGS[role];
  if (name.startsWith(RESERVED_PREFIX)) {
    return coded("variableReserved", { name, ending });
  }
  const prefix = name.slice(0, -ending.length);
  if (!name.endsWith(`_${ending}`) || !PREFIX.test(prefix)) {
    return coded("variableNotCredential", { name, ending });
  }
  return null;
}

/**
 * Every variable of an env reference that may not hold credentials, each field named by its
 * role (`accessKeyIdVar`), for a caller to place under its own path.
 */
export function credentialVariableErrors(reference: EnvReference): FieldError[] {
  const errors: FieldError[] = [];
  for (const role of Object.keys(CREDENTIAL_VARIABLE_ENDINGS) as CredentialVariableRole[]) {
    const name = reference[role];
    const problem = name === undefined ? null : credentialVariableProblem(role, name);
    if (problem !== null) errors.push(fieldError(role, problem));
  }
  return errors;
}

/**
 * What a printed credentials Secret holds instead of a key (`taillab k8s manifest` never prints
 * keys): it names the key to fill in, and a shard that finds it says so instead of sending it.
 */
export function secretPlaceholder(key: string): string {
  return `<fill in ${key}>`;
}

export function isSecretPlaceholder(value: string): boolean {
  return /^<fill in [^>]*>$/.test(value);
}

/** Why an env reference may not be read (its first variable that may not hold keys), or null. */
export function credentialVariableRefusal(reference: EnvReference): CodedMessage | null {
  const [first] = credentialVariableErrors(reference);
  return first ? messageOf(first) : null;
}

interface EnvReference {
  accessKeyIdVar: string;
  secretAccessKeyVar: string;
  sessionTokenVar?: string | undefined;
}
