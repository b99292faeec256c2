/** Which part of the user's setup a preflight failure points at. */
export type EndpointErrorField = "endpoint" | "credentials" | "bucket";

/**
 * A preflight failure the user can act on: the message names the endpoint and says what to fix,
 * e.g. `endpoint http://127.0.0.1:9000: bucket "loadgen" does not exist (NoSuchBucket); create
 * it or pass --create-bucket`.
 */
export class EndpointError extends Error {
  readonly field: EndpointErrorField;
  /** The S3 error Code or Node/undici code behind it (NoSuchBucket, ECONNREFUSED…). */
  readonly code: string;
  /** The message without the endpoint it is about: for a caller that names the endpoint itself. */
  readonly detail: string;
  /** No answer came at all (refused, reset, timed out), rather than an answer saying no. */
  readonly unanswered: boolean;

  constructor(
    field: EndpointErrorField,
    code: string,
    endpoint: string,
    detail: string,
    options: ErrorOptions & { unanswered?: boolean } = {},
  ) {
    super(`${endpoint}: ${detail}`, options);
    this.name = "EndpointError";
    this.field = field;
    this.code = code;
    this.detail = detail;
    this.unanswered = options.unanswered ?? false;
  }
}
