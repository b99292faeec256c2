/** S3 error codes the testbed answers with, and the HTTP status S3 uses for each. */
const STATUS_BY_CODE = {
  AccessDenied: 403,
  AuthorizationHeaderMalformed: 400,
  AuthorizationQueryParametersError: 400,
  BadDigest: 400,
  BucketAlreadyOwnedByYou: 409,
  BucketNotEmpty: 409,
  EntityTooLarge: 400,
  EntityTooSmall: 400,
  InternalError: 500,
  InvalidAccessKeyId: 403,
  InvalidArgument: 400,
  InvalidBucketName: 400,
  InvalidDigest: 400,
  InvalidPart: 400,
  InvalidPartOrder: 400,
  InvalidRange: 416,
  InvalidRequest: 400,
  InvalidURI: 400,
  KeyTooLongError: 400,
  MalformedXML: 400,
  MethodNotAllowed: 405,
  NoSuchBucket: 404,
  NoSuchKey: 404,
  NoSuchUpload: 404,
  NotImplemented: 501,
  PreconditionFailed: 412,
  RequestTimeTooSkewed: 403,
  SignatureDoesNotMatch: 403,
  XAmzContentSHA256Mismatch: 400,
} as const;

export type S3ErrorCode = keyof typeof STATUS_BY_CODE;

/** An error the client should see as an S3 XML error body with `code` and `status`. */
export class S3Error extends Error {
  readonly code: S3ErrorCode;
  readonly status: number;
  /** Response headers that belong with the error, e.g. Content-Range on InvalidRange. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: S3ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = "S3Error";
    this.code = code;
    this.status = STATUS_BY_CODE[code];
    this.headers = headers;
  }
}

/** A conditional write (`If-None-Match: *`) found the key already there. */
export function preconditionFailed(): S3Error {
  return new S3Error(
    "PreconditionFailed",
    "At least one of the pre-conditions you specified did not hold",
  );
}

export function noSuchBucket(bucket: string): S3Error {
  return new S3Error("NoSuchBucket", `The specified bucket does not exist: ${bucket}`);
}
