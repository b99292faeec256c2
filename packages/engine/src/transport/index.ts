export {
  createTransport,
  type ByteRange,
  type CompletedPart,
  type CreateMultipartUploadOutcome,
  type DeleteObjectsOutcome,
  type EtagOutcome,
  type GetExpectation,
  type GetOptions,
  type ListBucketsOutcome,
  type ListObjectsOutcome,
  type ListObjectsQuery,
  type MicrosClock,
  type ObjectTransport,
  type RequestOptions,
  type RequestOutcome,
  type ResolvedCredentials,
  type TargetTls,
  type TransportTarget,
} from "./object-transport.ts";
export { createFastTransport } from "./fast-transport.ts";
export { createSdkTransport } from "./sdk-transport.ts";
export { uploadInParts, type PartsUploadResult } from "./multipart-upload.ts";
export {
  createControlPlane,
  type ControlPlane,
  type OpenUpload,
  type RemovalResult,
} from "./control-plane.ts";
export { createTargetS3Client, type TargetS3Client } from "./s3-client.ts";
export { EndpointError, type EndpointErrorField } from "./endpoint-error.ts";
export { ENDLESS_LISTING_CODE, LISTING_LIMITS, type ListingLimits } from "./listing-bounds.ts";
export { UndiciHttpHandler, type UndiciHttpHandlerConfig } from "./undici-http-handler.ts";
export { encodeS3Key } from "./s3-uri-encoding.ts";
export { allowAnswerUpTo } from "./undici-http-handler.ts";
export { ANSWER_LIMIT_BYTES } from "./response-body.ts";
