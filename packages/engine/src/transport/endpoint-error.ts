import { coded, englishOf, type CodedMessage } from "@taillab/api";

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
  readonly detail: CodedMessage;
  /** The whole message as data: the endpoint and the detail. */
  readonly said: CodedMessage;
  /** No answer came at all (refused, reset, timed out), rather than an answer saying no. */
  readonly unanswered: boolean;

  constructor(
    field: EndpointErrorField,
    code: string,
    url: string,
    detail: CodedMessage,
    options: ErrorOptions & { unanswered?: boolean } = {},
  ) {
    const said = coded("atEndpoint", { url, problem: detail });
    super(englishOf(said), options);
    this.said = said;
    this.name = "EndpointError";
    this.field = field;
    this.code = code;
    this.detail = detail;
    this.unanswered = options.unanswered ?? false;
  }
}
