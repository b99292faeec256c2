import { boundedErrorCode } from "@taillab/core";
import { errorCodeFromException, errorCodeFromStatus } from "./s3-error-code.ts";

/** Names the SDK gives an error response it could not read a Code from. */
const GENERIC_NAMES = new Set(["Unknown", "UnknownError", "Error", "S3ServiceException", ""]);

/**
 * Status and error code of a failed SDK call, in the fast path's vocabulary: the S3 error Code
 * when the body had one, a status-derived code when it did not, the Node/undici code when no
 * response arrived, "Aborted" when the caller's signal fired.
 */
export function sdkErrorOutcome(
  error: unknown,
  signal: AbortSignal | undefined,
  responseStatus = 0,
): { status: number; code: string } {
  const status = responseStatusOf(error) ?? responseStatus;
  if (signal?.aborted) return { status, code: "Aborted" };
  if (status >= 300) return { status, code: serviceErrorCode(error, status) };
  return { status, code: errorCodeFromException(error) };
}

function responseStatusOf(error: unknown): number | null {
  if (typeof error !== "object" || error === null) return null;
  const { $metadata, $response } = error as {
    $metadata?: { httpStatusCode?: unknown };
    $response?: { statusCode?: unknown };
  };
  const status = $response?.statusCode ?? $metadata?.httpStatusCode;
  return typeof status === "number" && status > 0 ? status : null;
}

function serviceErrorCode(error: unknown, status: number): string {
  const { Code, name } = (error ?? {}) as { Code?: unknown; name?: unknown };
  if (typeof Code === "string" && Code.length > 0) return boundedErrorCode(Code);
  if (typeof name === "string" && !GENERIC_NAMES.has(name)) return boundedErrorCode(name);
  return errorCodeFromStatus(status);
}
