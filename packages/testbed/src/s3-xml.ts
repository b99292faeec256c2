/**
 * The few S3 XML documents the testbed writes, and the two it reads (DeleteObjects and
 * CompleteMultipartUpload). Rendering is
 * string building and reading is a handful of regexes over the known shape: an XML library would
 * cost more per request than everything else the testbed does.
 */
import { escapeXml, unescapeXml } from "@taillab/core";
import type { ListPage } from "./list-objects.ts";
import { MAX_PART_NUMBER, type CompletedPart } from "./multipart-completion.ts";
import type { PartsPage, UploadsPage } from "./multipart-listing.ts";
import { S3Error } from "./s3-error.ts";
import type { MultipartUpload } from "./upload-index.ts";

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const S3_NAMESPACE = "http://s3.amazonaws.com/doc/2006-03-01/";
export const XML_CONTENT_TYPE = "application/xml";
/** S3 allows at most this many keys in one DeleteObjects request. */
export const MAX_DELETE_KEYS = 1000;

function element(name: string, text: string | number | boolean): string {
  return `<${name}>${typeof text === "string" ? escapeXml(text) : String(text)}</${name}>`;
}

export interface ErrorDocument {
  code: string;
  message: string;
  resource: string;
  requestId: string;
}

export function errorXml(error: ErrorDocument): string {
  return (
    `${XML_DECLARATION}<Error>${element("Code", error.code)}${element("Message", error.message)}` +
    `${element("Resource", error.resource)}${element("RequestId", error.requestId)}</Error>`
  );
}

const OWNER = "<ID>taillab</ID><DisplayName>taillab</DisplayName>";

export function listBucketsXml(buckets: readonly { name: string; creationDate: Date }[]): string {
  const entries = buckets.map(
    (bucket) =>
      `<Bucket>${element("Name", bucket.name)}${element("CreationDate", bucket.creationDate.toISOString())}</Bucket>`,
  );
  return (
    `${XML_DECLARATION}<ListAllMyBucketsResult xmlns="${S3_NAMESPACE}">` +
    `<Owner>${OWNER}</Owner>` +
    `<Buckets>${entries.join("")}</Buckets></ListAllMyBucketsResult>`
  );
}

export function bucketLocationXml(region: string): string {
  // S3 reports the original region, us-east-1, as an empty constraint.
  const constraint = region === "us-east-1" ? "" : escapeXml(region);
  return `${XML_DECLARATION}<LocationConstraint xmlns="${S3_NAMESPACE}">${constraint}</LocationConstraint>`;
}

export interface ListedObject {
  key: string;
  sizeBytes: number;
  etag: string;
  lastModified: Date;
}

/** The request fields a listing echoes back, already in the form the response should carry. */
export interface ListObjectsXmlInput {
  bucket: string;
  prefix: string;
  delimiter: string;
  maxKeys: number;
  /** Encodes keys and prefixes in the response, as `encoding-type=url` asks. */
  urlEncode: boolean;
  objects: readonly ListedObject[];
  page: ListPage;
}

/** S3's `encoding-type=url` form: spaces as '+', '/' left readable. */
function urlEncode(text: string): string {
  return encodeURIComponent(text).replaceAll("%2F", "/").replaceAll("%20", "+");
}

function unchanged(text: string): string {
  return text;
}

function encoderFor(input: ListObjectsXmlInput): (text: string) => string {
  return input.urlEncode ? urlEncode : unchanged;
}

function listingBody(input: ListObjectsXmlInput, extraFields: string): string {
  const encode = encoderFor(input);
  const contents = input.objects.map(
    (object) =>
      `<Contents>${element("Key", encode(object.key))}` +
      `${element("LastModified", object.lastModified.toISOString())}${element("ETag", object.etag)}` +
      `${element("Size", object.sizeBytes)}<StorageClass>STANDARD</StorageClass></Contents>`,
  );
  const commonPrefixes = input.page.commonPrefixes.map(
    (prefix) => `<CommonPrefixes>${element("Prefix", encode(prefix))}</CommonPrefixes>`,
  );
  return (
    `${XML_DECLARATION}<ListBucketResult xmlns="${S3_NAMESPACE}">${element("Name", input.bucket)}` +
    `${element("Prefix", encode(input.prefix))}` +
    (input.delimiter === "" ? "" : element("Delimiter", encode(input.delimiter))) +
    `${element("MaxKeys", input.maxKeys)}${element("IsTruncated", input.page.isTruncated)}` +
    (input.urlEncode ? "<EncodingType>url</EncodingType>" : "") +
    `${extraFields}${contents.join("")}${commonPrefixes.join("")}</ListBucketResult>`
  );
}

export function listObjectsV2Xml(
  input: ListObjectsXmlInput,
  tokens: {
    startAfter: string;
    continuationToken: string;
    nextContinuationToken: string | undefined;
  },
): string {
  const encode = encoderFor(input);
  const keyCount = input.objects.length + input.page.commonPrefixes.length;
  return listingBody(
    input,
    element("KeyCount", keyCount) +
      (tokens.startAfter === "" ? "" : element("StartAfter", encode(tokens.startAfter))) +
      (tokens.continuationToken === ""
        ? ""
        : element("ContinuationToken", tokens.continuationToken)) +
      (tokens.nextContinuationToken === undefined
        ? ""
        : element("NextContinuationToken", tokens.nextContinuationToken)),
  );
}

export function listObjectsV1Xml(input: ListObjectsXmlInput, marker: string): string {
  const encode = encoderFor(input);
  const nextMarker = input.page.lastEntry;
  return listingBody(
    input,
    element("Marker", encode(marker)) +
      (nextMarker === undefined ? "" : element("NextMarker", encode(nextMarker))),
  );
}

export interface DeleteRequest {
  quiet: boolean;
  keys: string[];
}

const DELETE_ROOT = /<Delete[\s>]/;
const OBJECT_ELEMENT = /<Object(?:\s[^>]*)?>([\s\S]*?)<\/Object>/g;
const KEY_ELEMENT = /<Key>([\s\S]*?)<\/Key>/;
const QUIET_TRUE = /<Quiet>\s*true\s*<\/Quiet>/i;

/** Reads the DeleteObjects body SDKs send: <Delete><Quiet/>?<Object><Key/></Object>…</Delete>. */
export function parseDeleteRequest(xml: string): DeleteRequest {
  if (!DELETE_ROOT.test(xml)) {
    throw new S3Error("MalformedXML", "The DeleteObjects body has no <Delete> element");
  }
  const keys: string[] = [];
  for (const [, objectBody = ""] of xml.matchAll(OBJECT_ELEMENT)) {
    const key = KEY_ELEMENT.exec(objectBody);
    if (!key)
      throw new S3Error("MalformedXML", "An <Object> in the DeleteObjects body has no <Key>");
    keys.push(unescapeXml(key[1] ?? ""));
  }
  if (keys.length === 0 || keys.length > MAX_DELETE_KEYS) {
    throw new S3Error(
      "MalformedXML",
      `A DeleteObjects body must name 1 to ${MAX_DELETE_KEYS} objects; this one names ${keys.length}`,
    );
  }
  return { quiet: QUIET_TRUE.test(xml), keys };
}

export interface DeleteFailure {
  key: string;
  code: string;
  message: string;
}

export function deleteResultXml(
  deleted: readonly string[],
  failures: readonly DeleteFailure[],
): string {
  const deletedEntries = deleted.map((key) => `<Deleted>${element("Key", key)}</Deleted>`);
  const errorEntries = failures.map(
    (failure) =>
      `<Error>${element("Key", failure.key)}${element("Code", failure.code)}${element("Message", failure.message)}</Error>`,
  );
  return `${XML_DECLARATION}<DeleteResult xmlns="${S3_NAMESPACE}">${deletedEntries.join("")}${errorEntries.join("")}</DeleteResult>`;
}

export function copyObjectResultXml(object: { etag: string; lastModified: Date }): string {
  return (
    `${XML_DECLARATION}<CopyObjectResult xmlns="${S3_NAMESPACE}">` +
    `${element("LastModified", object.lastModified.toISOString())}${element("ETag", object.etag)}` +
    `</CopyObjectResult>`
  );
}

export function initiateMultipartUploadXml(upload: MultipartUpload): string {
  return (
    `${XML_DECLARATION}<InitiateMultipartUploadResult xmlns="${S3_NAMESPACE}">` +
    `${element("Bucket", upload.bucket)}${element("Key", upload.key)}` +
    `${element("UploadId", upload.uploadId)}</InitiateMultipartUploadResult>`
  );
}

export function completeMultipartUploadXml(result: {
  location: string;
  bucket: string;
  key: string;
  etag: string;
}): string {
  return (
    `${XML_DECLARATION}<CompleteMultipartUploadResult xmlns="${S3_NAMESPACE}">` +
    `${element("Location", result.location)}${element("Bucket", result.bucket)}` +
    `${element("Key", result.key)}${element("ETag", result.etag)}</CompleteMultipartUploadResult>`
  );
}

export function listPartsXml(
  upload: MultipartUpload,
  query: { partNumberMarker: number; maxParts: number },
  page: PartsPage<{ partNumber: number; etag: string; sizeBytes: number; lastModified: Date }>,
): string {
  const parts = page.parts.map(
    (part) =>
      `<Part>${element("PartNumber", part.partNumber)}` +
      `${element("LastModified", part.lastModified.toISOString())}${element("ETag", part.etag)}` +
      `${element("Size", part.sizeBytes)}</Part>`,
  );
  return (
    `${XML_DECLARATION}<ListPartsResult xmlns="${S3_NAMESPACE}">` +
    `${element("Bucket", upload.bucket)}${element("Key", upload.key)}` +
    `${element("UploadId", upload.uploadId)}` +
    `<Initiator>${OWNER}</Initiator><Owner>${OWNER}</Owner><StorageClass>STANDARD</StorageClass>` +
    `${element("PartNumberMarker", query.partNumberMarker)}` +
    (page.nextPartNumberMarker === undefined
      ? ""
      : element("NextPartNumberMarker", page.nextPartNumberMarker)) +
    `${element("MaxParts", query.maxParts)}${element("IsTruncated", page.isTruncated)}` +
    `${parts.join("")}</ListPartsResult>`
  );
}

export function listMultipartUploadsXml(
  bucket: string,
  query: {
    prefix: string;
    keyMarker: string;
    uploadIdMarker: string;
    maxUploads: number;
    urlEncode: boolean;
  },
  page: UploadsPage,
): string {
  const encode = query.urlEncode ? urlEncode : unchanged;
  const uploads = page.uploads.map(
    (upload) =>
      `<Upload>${element("Key", encode(upload.key))}${element("UploadId", upload.uploadId)}` +
      `<Initiator>${OWNER}</Initiator><Owner>${OWNER}</Owner><StorageClass>STANDARD</StorageClass>` +
      `${element("Initiated", upload.initiated.toISOString())}</Upload>`,
  );
  return (
    `${XML_DECLARATION}<ListMultipartUploadsResult xmlns="${S3_NAMESPACE}">` +
    `${element("Bucket", bucket)}${element("KeyMarker", encode(query.keyMarker))}` +
    `${element("UploadIdMarker", query.uploadIdMarker)}` +
    (page.nextKeyMarker === undefined
      ? ""
      : element("NextKeyMarker", encode(page.nextKeyMarker)) +
        element("NextUploadIdMarker", page.nextUploadIdMarker ?? "")) +
    `${element("Prefix", encode(query.prefix))}${element("MaxUploads", query.maxUploads)}` +
    `${element("IsTruncated", page.isTruncated)}` +
    (query.urlEncode ? "<EncodingType>url</EncodingType>" : "") +
    `${uploads.join("")}</ListMultipartUploadsResult>`
  );
}

const COMPLETE_ROOT = /<CompleteMultipartUpload[\s>]/;
const PART_ELEMENT = /<Part(?:\s[^>]*)?>([\s\S]*?)<\/Part>/g;
const PART_NUMBER_ELEMENT = /<PartNumber>\s*([0-9]+)\s*<\/PartNumber>/;
const ETAG_ELEMENT = /<ETag>([\s\S]*?)<\/ETag>/;

/**
 * Reads the CompleteMultipartUpload body SDKs send:
 * <CompleteMultipartUpload><Part><ETag/><PartNumber/>…</Part>…</CompleteMultipartUpload>.
 * Checksums in the parts are ignored.
 */
export function parseCompleteMultipartUpload(xml: string): CompletedPart[] {
  if (!COMPLETE_ROOT.test(xml)) {
    throw new S3Error(
      "MalformedXML",
      "The CompleteMultipartUpload body has no <CompleteMultipartUpload> element",
    );
  }
  const parts: CompletedPart[] = [];
  for (const [, partBody = ""] of xml.matchAll(PART_ELEMENT)) {
    const partNumber = PART_NUMBER_ELEMENT.exec(partBody);
    const etag = ETAG_ELEMENT.exec(partBody);
    if (!partNumber || !etag) {
      throw new S3Error(
        "MalformedXML",
        "A <Part> in the CompleteMultipartUpload body needs a <PartNumber> and an <ETag>",
      );
    }
    const number = Number(partNumber[1]);
    if (number < 1 || number > MAX_PART_NUMBER) {
      throw new S3Error(
        "InvalidArgument",
        `Part number must be an integer between 1 and ${MAX_PART_NUMBER}, inclusive, not ${number}`,
      );
    }
    parts.push({ partNumber: number, etag: unescapeXml(etag[1] ?? "").trim() });
  }
  if (parts.length === 0) {
    throw new S3Error(
      "MalformedXML",
      "The CompleteMultipartUpload body must name at least one <Part>",
    );
  }
  return parts;
}
