import { TIMEOUT_ERROR } from "@taillab/api";
import { boundedErrorCode } from "@taillab/core";

/**
 * One vocabulary of error codes for both data paths, so a run's `errorsByCode` means the same
 * thing whichever transport produced it. A code taken from a server's answer is bounded (core's
 * boundedErrorCode) here, where it enters: records, summaries and the terminal then agree.
 */

/** The <Code> of an S3 XML error body, bounded, or null when there is none. */
export function errorCodeFromXml(body: string): string | null {
  const match = /<Code>\s*([^<\s][^<]*?)\s*<\/Code>/.exec(body);
  return match?.[1] === undefined ? null : boundedErrorCode(match[1]);
}

const STATUS_CODES: Readonly<Record<number, string>> = {
  301: "MovedPermanently",
  304: "NotModified",
  307: "TemporaryRedirect",
  400: "BadRequest",
  401: "Unauthorized",
  403: "Forbidden",
  404: "NotFound",
  405: "MethodNotAllowed",
  409: "Conflict",
  411: "LengthRequired",
  412: "PreconditionFailed",
  416: "InvalidRange",
};

/** A code for an error response without an S3 error body (HEAD, proxies, load balancers). */
export function errorCodeFromStatus(status: number): string {
  return STATUS_CODES[status] ?? `HTTP${status}`;
}

/**
 * The code of a failure that produced no HTTP response: Node's system error code (ECONNREFUSED,
 * ENOTFOUND, ECONNRESET…) or undici's (UND_ERR_SOCKET, UND_ERR_HEADERS_TIMEOUT…).
 */
export function errorCodeFromException(error: unknown): string {
  const code = findCode(error, 0);
  // undici's own timers are set to the request timeout too (see fast-transport.ts): whichever
  // fires first, it is the same timeout.
  if (code !== null && UNDICI_TIMEOUTS.has(code)) return TIMEOUT_ERROR;
  if (code !== null) return code;
  if (error instanceof Error && error.name && error.name !== "Error") return error.name;
  return "Error";
}

const UNDICI_TIMEOUTS = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

function findCode(error: unknown, depth: number): string | null {
  if (depth > 3 || typeof error !== "object" || error === null) return null;
  const { code } = error as { code?: unknown };
  if (typeof code === "string" && code.length > 0) return code;
  // Happy-eyeballs connects (localhost → ::1 and 127.0.0.1) fail with an AggregateError.
  if (error instanceof AggregateError) {
    for (const inner of error.errors) {
      const innerCode = findCode(inner, depth + 1);
      if (innerCode !== null) return innerCode;
    }
  }
  return findCode((error as { cause?: unknown }).cause, depth + 1);
}

/**
 * A DeleteObjects answered 200 that could not delete some keys: `PartialFailure:` and the
 * distinct codes of those keys, sorted (`PartialFailure:AccessDenied,InternalError`), so a
 * run's error counts say why, not only that. Null when every key went.
 */
export function partialFailureCode(keyErrors: readonly { code: string }[]): string | null {
  if (keyErrors.length === 0) return null;
  const codes = [...new Set(keyErrors.map((failure) => failure.code))].sort();
  return boundedErrorCode(`PartialFailure:${codes.join(",")}`);
}

/** An operation whose success is a document (`emptyBodyIsError`) answered 2xx with no body: cut short. */
export const EMPTY_SUCCESS_BODY_CODE = "InternalError";

const ERROR_DOCUMENT_END = "</Error>";
const TAIL_BYTES = 64;

/**
 * The error hidden in a 2xx answer: S3 may answer 200 and then report a failure in the body (an
 * S3 error document), so such a body is the error's Code. With `emptyIsError`, an empty body is
 * EMPTY_SUCCESS_BODY_CODE. Only the tail is looked at first: a success document ends with its own
 * root element, and a listing may contain "<Error>" as (escaped) key text but never end with it.
 */
export function errorCodeFromSuccessBody(body: Uint8Array, emptyIsError: boolean): string | null {
  if (body.length === 0) return emptyIsError ? EMPTY_SUCCESS_BODY_CODE : null;
  const tail = utf8.decode(body.subarray(Math.max(0, body.length - TAIL_BYTES))).trimEnd();
  if (!tail.endsWith(ERROR_DOCUMENT_END)) return null;
  return errorCodeFromXml(utf8.decode(body)) ?? EMPTY_SUCCESS_BODY_CODE;
}

const utf8 = new TextDecoder();
