import type { ConnectionReport, ConnectionTestInput } from "@taillab/api";
import { api } from "../../app/api.ts";
import { errorText } from "../../shared/said.ts";

/** One connection test as the UI shows it: running, its report, or why it could not run. */
export interface ConnectionTestState {
  pending: boolean;
  report: ConnectionReport | null;
  /** The call itself failed (bad input, backend missing): not a verdict about the server. */
  error: string | null;
}

export const IDLE_TEST: ConnectionTestState = { pending: false, report: null, error: null };
export const PENDING_TEST: ConnectionTestState = { pending: true, report: null, error: null };

/**
 * Runs a test (or creates the bucket, then tests: `createBucket`); a failed call becomes an
 * `error` state, with the failure passed on.
 */
export async function runConnectionTest(
  input: ConnectionTestInput,
  call: "testConnection" | "createBucket" = "testConnection",
): Promise<{ state: ConnectionTestState; failure: unknown }> {
  try {
    const report = await api()[call](input);
    return { state: { pending: false, report, error: null }, failure: null };
  } catch (error) {
    return { state: { pending: false, report: null, error: errorText(error) }, failure: error };
  }
}

/** The halves of a key pair a test can blame. */
export type KeyPart = "accessKey" | "secret";

/**
 * Which keys a "credentials" verdict blames, so the form can mark them: the failed check's code
 * says which one (an unknown key id, or a signature made with the wrong secret); any other
 * refusal (a token, anonymous access refused) blames both.
 */
export function refusedKeyParts(report: ConnectionReport | null): KeyPart[] {
  if (report?.verdict !== "credentials") return [];
  const code = failedCheck(report)?.code;
  if (code === "unknownKeyId") return ["accessKey"];
  if (code === "secretRejected") return ["secret"];
  return ["accessKey", "secret"];
}

/** The bucket does not exist (not merely forbidden): one the app can create, as a run would. */
export function bucketIsMissing(report: ConnectionReport | null): boolean {
  return report?.verdict === "bucket" && failedCheck(report)?.code === "bucketDoesNotExist";
}

function failedCheck(report: ConnectionReport) {
  return report.checks.find((check) => check.ok === false);
}
