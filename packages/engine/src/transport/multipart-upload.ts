import { S3_MAX_PART_NUMBER } from "@taillab/core";
import type {
  CompletedPart,
  CreateMultipartUploadOutcome,
  EtagOutcome,
  ObjectTransport,
  RequestOutcome,
} from "./object-transport.ts";

export interface PartsUploadResult {
  /**
   * The whole upload as one request: from CreateMultipartUpload (ready, sent) to the end of the
   * last call made (Complete, or Abort after a failure; headers and first byte are its). The
   * status and error are those of the first call that failed (else Complete's), or
   * "MissingUploadId" / "MissingETag" when a 2xx answer lacked what the next call needs. bytes is
   * the body's size once Complete succeeded, 0 otherwise (as for PUT). etag is the object's.
   */
  outcome: EtagOutcome;
  create: CreateMultipartUploadOutcome;
  /** In part-number order; parts never sent (after a failure or an abort) are absent. */
  parts: EtagOutcome[];
  /** null when the upload failed before Complete. */
  complete: EtagOutcome | null;
  /** The clean-up after a failure (sent without the caller's signal); null when not needed. */
  abort: RequestOutcome | null;
}

/**
 * Uploads `body` as a multipart object: parts of `partSizeBytes` (the last one shorter), at most
 * `partsInFlight` at once, then Complete. On the first failure no further part is started, and the
 * upload is aborted so no parts are left behind. Part sizes are not checked against S3's 5 MiB
 * minimum: a server that enforces it answers Complete with EntityTooSmall.
 */
export async function uploadInParts(
  transport: ObjectTransport,
  key: string,
  body: Uint8Array,
  partSizeBytes: number,
  partsInFlight: number,
  options: { signal?: AbortSignal } = {},
): Promise<PartsUploadResult> {
  if (!Number.isSafeInteger(partSizeBytes) || partSizeBytes < 1) {
    throw new Error(
      `uploadInParts: partSizeBytes must be a positive integer, got ${partSizeBytes}`,
    );
  }
  const partCount = Math.max(1, Math.ceil(body.byteLength / partSizeBytes));
  if (!Number.isInteger(partsInFlight) || partsInFlight < 1) {
    throw new Error(
      `uploadInParts: partsInFlight must be a positive integer, got ${partsInFlight}`,
    );
  }
  if (partCount > S3_MAX_PART_NUMBER) {
    throw new Error(
      `uploadInParts: ${partCount} parts of ${partSizeBytes} bytes; S3 allows ${S3_MAX_PART_NUMBER}`,
    );
  }
  const { signal } = options;

  const create = await transport.createMultipartUpload(key, { signal });
  const uploadId = create.uploadId;
  if (create.error !== null || uploadId === null) {
    const error = create.error ?? "MissingUploadId";
    return {
      outcome: whole(create, create, { ...create, error }),
      create,
      parts: [],
      complete: null,
      abort: null,
    };
  }

  const parts: EtagOutcome[] = [];
  // An object, not a `let`: the part loops set it, which TypeScript's narrowing cannot see.
  const state: { failure: EtagOutcome | null } = { failure: null };
  let next = 0;
  const sendParts = async () => {
    for (let index = next++; index < partCount && state.failure === null; index = next++) {
      const start = index * partSizeBytes;
      const part = body.subarray(start, Math.min(start + partSizeBytes, body.byteLength));
      const outcome = await transport.uploadPart(key, uploadId, index + 1, part, { signal });
      parts[index] = outcome;
      if (outcome.error !== null || outcome.etag === null) {
        state.failure ??= { ...outcome, error: outcome.error ?? "MissingETag" };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(partsInFlight, partCount) }, sendParts));
  const sent = parts.filter((part) => part !== undefined);

  if (state.failure === null) {
    const completed: CompletedPart[] = sent.map((part, index) => ({
      partNumber: index + 1,
      etag: part.etag ?? "",
    }));
    const complete = await transport.completeMultipartUpload(key, uploadId, completed, { signal });
    if (complete.error === null) {
      return {
        outcome: whole(create, complete, { ...complete, bytes: body.byteLength }),
        create,
        parts: sent,
        complete,
        abort: null,
      };
    }
    const abort = await transport.abortMultipartUpload(key, uploadId);
    return { outcome: whole(create, abort, complete), create, parts: sent, complete, abort };
  }
  const abort = await transport.abortMultipartUpload(key, uploadId);
  return {
    outcome: whole(create, abort, state.failure),
    create,
    parts: sent,
    complete: null,
    abort,
  };
}

/** The upload's outcome: timed from `first` to `last`, the rest from `result`. */
function whole(
  first: RequestOutcome,
  last: RequestOutcome,
  result: RequestOutcome & { etag?: string | null },
): EtagOutcome {
  return {
    readyUs: first.readyUs,
    sentUs: first.sentUs,
    headersUs: last.headersUs,
    firstByteUs: last.firstByteUs,
    endUs: last.endUs,
    status: result.status,
    error: result.error,
    bytes: result.error === null ? result.bytes : 0,
    etag: result.error === null ? (result.etag ?? null) : null,
  };
}
