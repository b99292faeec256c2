/**
 * AWS Signature Version 4 as S3 checks it, for both the Authorization header and presigned URLs.
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-authenticating-requests.html
 */
import { createHmac, createSecretKey, hash, timingSafeEqual, type KeyObject } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { headerText } from "./http-headers.ts";
import { S3Error } from "./s3-error.ts";

const ALGORITHM = "AWS4-HMAC-SHA256";
const UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";
/** S3 rejects requests signed more than 15 minutes away from its clock. */
const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000;
const MAX_PRESIGNED_EXPIRY_S = 7 * 24 * 60 * 60;
const AMZ_DATE = /^\d{8}T\d{6}Z$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
const WHITESPACE_RUN = /\s+/g;
const RFC3986_EXTRA = /[!'()*]/g;

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface SignedRequest {
  method: string;
  /** The path exactly as sent: S3 signs it without normalising or re-encoding it. */
  rawPath: string;
  rawQuery: string;
  headers: IncomingHttpHeaders;
}

/** URI-encodes every byte except the RFC 3986 unreserved characters, as SigV4 asks. */
export function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(
    RFC3986_EXTRA,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function decodeQueryComponent(text: string): string {
  const spaced = text.includes("+") ? text.replaceAll("+", " ") : text;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/**
 * Names and values decoded then re-encoded (so `%7e`, `~` and `%7E` all sign alike), sorted by
 * name then value. X-Amz-Signature is left out: a presigned URL cannot sign its own signature.
 */
export function canonicalQueryString(rawQuery: string): string {
  const pairs: string[][] = [];
  for (const part of rawQuery.split("&")) {
    if (part === "") continue;
    const equals = part.indexOf("=");
    const name = uriEncode(decodeQueryComponent(equals === -1 ? part : part.slice(0, equals)));
    if (name === "X-Amz-Signature") continue;
    const value = equals === -1 ? "" : uriEncode(decodeQueryComponent(part.slice(equals + 1)));
    pairs.push([name, value]);
  }
  return pairs
    .sort(([nameA = "", valueA = ""], [nameB = "", valueB = ""]) =>
      nameA === nameB ? compareAscii(valueA, valueB) : compareAscii(nameA, nameB),
    )
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
}

function compareAscii(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `name:value\n` for each signed header, values trimmed with inner whitespace runs collapsed. */
export function canonicalHeaders(
  headers: IncomingHttpHeaders,
  signedHeaders: readonly string[],
): string {
  let text = "";
  for (const name of signedHeaders) {
    const raw = headers[name];
    const value = Array.isArray(raw) ? raw.join(",") : (raw ?? "");
    text += `${name}:${value.trim().replace(WHITESPACE_RUN, " ")}\n`;
  }
  return text;
}

export function canonicalRequest(
  request: SignedRequest,
  signedHeaders: readonly string[],
  payloadHash: string,
): string {
  return [
    request.method,
    request.rawPath,
    canonicalQueryString(request.rawQuery),
    canonicalHeaders(request.headers, signedHeaders),
    signedHeaders.join(";"),
    payloadHash,
  ].join("\n");
}

export function deriveSigningKey(secretAccessKey: string, date: string, region: string): Buffer {
  const dateKey = createHmac("sha256", `AWS4${secretAccessKey}`).update(date).digest();
  const regionKey = createHmac("sha256", dateKey).update(region).digest();
  const serviceKey = createHmac("sha256", regionKey).update("s3").digest();
  return createHmac("sha256", serviceKey).update("aws4_request").digest();
}

export function computeSignature(
  signingKey: Buffer | KeyObject,
  amzDate: string,
  scope: string,
  canonical: string,
): string {
  const stringToSign = `${ALGORITHM}\n${amzDate}\n${scope}\n${hash("sha256", canonical, "hex")}`;
  return createHmac("sha256", signingKey).update(stringToSign).digest("hex");
}

/** What a request claims about its signature, from the Authorization header or the query. */
interface Claim {
  presigned: boolean;
  credential: string;
  signedHeaders: string;
  signature: string;
  amzDate: string;
  payloadHash: string;
  expiresS: number | undefined;
}

function malformed(presigned: boolean, why: string): S3Error {
  return presigned
    ? new S3Error("AuthorizationQueryParametersError", `The presigned URL is malformed; ${why}`)
    : new S3Error("AuthorizationHeaderMalformed", `The authorization header is malformed; ${why}`);
}

function headerClaim(authorization: string, headers: IncomingHttpHeaders): Claim {
  if (!authorization.startsWith(`${ALGORITHM} `)) {
    throw malformed(false, `only ${ALGORITHM} (Signature Version 4) is supported`);
  }
  const fields = new Map<string, string>();
  for (const field of authorization.slice(ALGORITHM.length + 1).split(",")) {
    const equals = field.indexOf("=");
    if (equals !== -1) fields.set(field.slice(0, equals).trim(), field.slice(equals + 1).trim());
  }
  const credential = fields.get("Credential");
  const signedHeaders = fields.get("SignedHeaders");
  const signature = fields.get("Signature");
  if (credential === undefined || signedHeaders === undefined || signature === undefined) {
    throw malformed(false, "it needs Credential, SignedHeaders and Signature");
  }
  const payloadHash = headerText(headers, "x-amz-content-sha256");
  if (payloadHash === undefined) {
    throw new S3Error(
      "InvalidRequest",
      "Missing required header for this request: x-amz-content-sha256",
    );
  }
  return {
    presigned: false,
    credential,
    signedHeaders,
    signature,
    amzDate: headerText(headers, "x-amz-date") ?? "",
    payloadHash,
    expiresS: undefined,
  };
}

function queryClaim(query: URLSearchParams, headers: IncomingHttpHeaders): Claim {
  if (query.get("X-Amz-Algorithm") !== ALGORITHM) {
    throw malformed(true, `X-Amz-Algorithm must be ${ALGORITHM}`);
  }
  const credential = query.get("X-Amz-Credential");
  const signedHeaders = query.get("X-Amz-SignedHeaders");
  const signature = query.get("X-Amz-Signature");
  if (credential === null || signedHeaders === null || signature === null) {
    throw malformed(true, "it needs X-Amz-Credential, X-Amz-SignedHeaders and X-Amz-Signature");
  }
  const expiresS = Number(query.get("X-Amz-Expires"));
  if (!Number.isInteger(expiresS) || expiresS < 1 || expiresS > MAX_PRESIGNED_EXPIRY_S) {
    throw malformed(true, `X-Amz-Expires must be 1 to ${MAX_PRESIGNED_EXPIRY_S} seconds`);
  }
  return {
    presigned: true,
    credential,
    signedHeaders,
    signature,
    amzDate: query.get("X-Amz-Date") ?? "",
    payloadHash: headerText(headers, "x-amz-content-sha256") ?? UNSIGNED_PAYLOAD,
    expiresS,
  };
}

/** Milliseconds since the epoch of an ISO 8601 basic time, `20130524T000000Z`. */
function parseAmzDate(amzDate: string): number | undefined {
  if (!AMZ_DATE.test(amzDate)) return undefined;
  const [date, time] = [amzDate.slice(0, 8), amzDate.slice(9, 15)];
  const extended = `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6)}T${time.slice(0, 2)}:${time.slice(2, 4)}:${time.slice(4)}Z`;
  const ms = Date.parse(extended);
  return Number.isNaN(ms) ? undefined : ms;
}

export interface VerifiedRequest {
  /** The body's SHA-256 (hex) that the signature covers, to check once the body is read. */
  expectedPayloadSha256: string | undefined;
}

export interface SigV4VerifierOptions {
  credentials: Credentials;
  region: string;
  now?: () => number;
}

/** Throws the S3Error S3 would answer with when the request is not signed by `credentials`. */
export type SigV4Verifier = (request: SignedRequest, query: URLSearchParams) => VerifiedRequest;

export function createSigV4Verifier(options: SigV4VerifierOptions): SigV4Verifier {
  const { credentials, region, now = Date.now } = options;
  // Deriving a signing key is four HMACs; it changes only with the date in the scope. Keeping it
  // as a KeyObject also makes each request's HMAC several times cheaper than from a Buffer.
  const signingKeys = new Map<string, KeyObject>();
  const signingKeyFor = (date: string): KeyObject => {
    let key = signingKeys.get(date);
    if (key === undefined) {
      if (signingKeys.size >= 4) signingKeys.clear();
      key = createSecretKey(deriveSigningKey(credentials.secretAccessKey, date, region));
      signingKeys.set(date, key);
    }
    return key;
  };

  return (request, query) => {
    const authorization = request.headers.authorization;
    let claim: Claim;
    if (authorization !== undefined) claim = headerClaim(authorization, request.headers);
    else if (query.has("X-Amz-Signature")) claim = queryClaim(query, request.headers);
    else throw new S3Error("AccessDenied", "Access Denied: the request is not signed");

    const { presigned, amzDate, payloadHash } = claim;
    const [accessKeyId, date = "", scopeRegion, service, terminator, ...rest] =
      claim.credential.split("/");
    if (service !== "s3" || terminator !== "aws4_request" || rest.length > 0) {
      throw malformed(
        presigned,
        `the credential "${claim.credential}" is not <key>/<date>/<region>/s3/aws4_request`,
      );
    }
    if (accessKeyId !== credentials.accessKeyId) {
      throw new S3Error(
        "InvalidAccessKeyId",
        `The AWS Access Key Id you provided does not exist in our records: ${accessKeyId}`,
      );
    }
    if (scopeRegion !== region) {
      throw malformed(presigned, `the region '${scopeRegion}' is wrong; expecting '${region}'`);
    }
    const signedAtMs = parseAmzDate(amzDate);
    if (signedAtMs === undefined) {
      throw new S3Error(
        "AccessDenied",
        "AWS authentication requires a valid x-amz-date header or X-Amz-Date parameter",
      );
    }
    if (amzDate.slice(0, 8) !== date) {
      throw malformed(presigned, `the credential date ${date} is not the date of ${amzDate}`);
    }
    const nowMs = now();
    // A presigned URL may be used long after signing, until it expires.
    const tooOld = !presigned && nowMs - signedAtMs > MAX_CLOCK_SKEW_MS;
    if (tooOld || signedAtMs - nowMs > MAX_CLOCK_SKEW_MS) {
      throw new S3Error(
        "RequestTimeTooSkewed",
        `The difference between the request time (${amzDate}) and the server time is too large`,
      );
    }
    if (claim.expiresS !== undefined && nowMs > signedAtMs + claim.expiresS * 1000) {
      throw new S3Error(
        "AccessDenied",
        `Request has expired: signed at ${amzDate} for ${claim.expiresS} s`,
      );
    }
    const signsPayload = SHA256_HEX.test(payloadHash);
    if (!signsPayload && payloadHash !== UNSIGNED_PAYLOAD) {
      throw new S3Error(
        "InvalidArgument",
        `x-amz-content-sha256 must be UNSIGNED-PAYLOAD or a SHA-256 in hex, not "${payloadHash}"`,
      );
    }

    const scope = `${date}/${region}/s3/aws4_request`;
    const canonical = canonicalRequest(request, claim.signedHeaders.split(";"), payloadHash);
    const expected = Buffer.from(computeSignature(signingKeyFor(date), amzDate, scope, canonical));
    const provided = Buffer.from(claim.signature);
    if (provided.length !== expected.length || !timingSafeEqual(provided, expected)) {
      throw new S3Error(
        "SignatureDoesNotMatch",
        "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
      );
    }
    return { expectedPayloadSha256: signsPayload ? payloadHash : undefined };
  };
}
