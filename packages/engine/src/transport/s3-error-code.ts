/**
 * One vocabulary of error codes for both data paths, so a run's `errorsByCode` means the same
 * thing whichever transport produced it.
 */

/** The <Code> of an S3 XML error body, or null when there is none. */
export function errorCodeFromXml(body: string): string | null {
  const match = /<Code>\s*([^<\s][^<]*?)\s*<\/Code>/.exec(body);
  return match?.[1] ?? null;
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
  if (code !== null) return code;
  if (error instanceof Error && error.name && error.name !== "Error") return error.name;
  return "Error";
}

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
