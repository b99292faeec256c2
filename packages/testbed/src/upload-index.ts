/**
 * Open multipart uploads and their parts in memory, shared by both stores: the memory store's
 * parts hold their bodies, the directory store's name the file they are in. Checking and taking
 * an upload happen in one synchronous step, so two completions, or a completion and an abort,
 * never both get the same upload.
 */
import { randomBytes } from "node:crypto";
import { compareUtf8 } from "./list-objects.ts";
import { S3Error } from "./s3-error.ts";

export interface MultipartUpload {
  uploadId: string;
  bucket: string;
  key: string;
  /** From the CreateMultipartUpload request; the completed object gets it. */
  contentType: string;
  initiated: Date;
}

export interface PartMetadata {
  partNumber: number;
  /** Quoted hex MD5 of the part, as UploadPart answered it. */
  etag: string;
  sizeBytes: number;
  lastModified: Date;
}

/** Which stored parts make the object, in order, and the object's ETag and size. */
export interface CompletionPlan {
  partNumbers: readonly number[];
  etag: string;
  sizeBytes: number;
}

/** Decides a completion from the stored parts; throws the S3Error that refuses it. */
export type CompletionCheck = (parts: ReadonlyMap<number, PartMetadata>) => CompletionPlan;

export interface OpenUpload<P extends PartMetadata> extends MultipartUpload {
  readonly parts: ReadonlyMap<number, P>;
}

interface Upload<P extends PartMetadata> extends MultipartUpload {
  parts: Map<number, P>;
}

export interface CompletedUpload<P extends PartMetadata> {
  upload: MultipartUpload;
  /** The parts the plan chose, in its order. */
  parts: P[];
  etag: string;
  sizeBytes: number;
}

/** The upload alone, without its parts. */
export function uploadSummary(upload: MultipartUpload): MultipartUpload {
  const { uploadId, bucket, key, contentType, initiated } = upload;
  return { uploadId, bucket, key, contentType, initiated };
}

/** A part's metadata alone, without what a store keeps with it (its body, its file). */
export function partMetadata(part: PartMetadata): PartMetadata {
  const { partNumber, etag, sizeBytes, lastModified } = part;
  return { partNumber, etag, sizeBytes, lastModified };
}

function byPartNumber(a: PartMetadata, b: PartMetadata): number {
  return a.partNumber - b.partNumber;
}

export class UploadIndex<P extends PartMetadata> {
  readonly #uploads = new Map<string, Upload<P>>();
  #created = 0;

  /**
   * Upload ids start with a counter, so that they sort in creation order (ListMultipartUploads
   * lists one key's uploads that way), then random hex, so that an id from another testbed is
   * unknown here rather than someone else's upload.
   */
  create(bucket: string, key: string, contentType: string): MultipartUpload {
    const uploadId = `${(this.#created++).toString(16).padStart(8, "0")}${randomBytes(16).toString("hex")}`;
    const upload: Upload<P> = {
      uploadId,
      bucket,
      key,
      contentType,
      initiated: new Date(),
      parts: new Map(),
    };
    this.#uploads.set(uploadId, upload);
    return uploadSummary(upload);
  }

  /** Throws NoSuchUpload unless `uploadId` is an open upload of this bucket and key. */
  get(bucket: string, key: string, uploadId: string): OpenUpload<P> {
    return this.#find(bucket, key, uploadId);
  }

  /** The upload's parts by part number. */
  sortedParts(bucket: string, key: string, uploadId: string): P[] {
    return [...this.get(bucket, key, uploadId).parts.values()].sort(byPartNumber);
  }

  /** Adds or replaces a part; returns the part it replaced. */
  setPart(bucket: string, key: string, uploadId: string, part: P): P | undefined {
    const parts = this.#find(bucket, key, uploadId).parts;
    const replaced = parts.get(part.partNumber);
    parts.set(part.partNumber, part);
    return replaced;
  }

  /** Ends the upload, e.g. on abort, and returns it with its parts. */
  take(bucket: string, key: string, uploadId: string): OpenUpload<P> {
    const upload = this.#find(bucket, key, uploadId);
    this.#uploads.delete(uploadId);
    return upload;
  }

  /**
   * Runs `check` on the upload's parts. If it throws, the upload stays open (the client may fix
   * its part list and retry, as with S3); otherwise the upload ends here.
   */
  complete(
    bucket: string,
    key: string,
    uploadId: string,
    check: CompletionCheck,
  ): CompletedUpload<P> {
    const upload = this.#find(bucket, key, uploadId);
    const { partNumbers, etag, sizeBytes } = check(upload.parts);
    this.#uploads.delete(uploadId);
    const parts = partNumbers.map((partNumber) => {
      const part = upload.parts.get(partNumber);
      if (part === undefined) throw new Error(`completion plan names missing part ${partNumber}`);
      return part;
    });
    return { upload: uploadSummary(upload), parts, etag, sizeBytes };
  }

  /** The bucket's open uploads by key (UTF-8 order), then upload id (creation order). */
  list(bucket: string): MultipartUpload[] {
    const uploads: MultipartUpload[] = [];
    for (const upload of this.#uploads.values()) {
      if (upload.bucket === bucket) uploads.push(uploadSummary(upload));
    }
    return uploads.sort(
      (a, b) =>
        compareUtf8(a.key, b.key) ||
        (a.uploadId < b.uploadId ? -1 : a.uploadId > b.uploadId ? 1 : 0),
    );
  }

  /** Ends every upload of a bucket that is being deleted, as S3 does. */
  removeBucket(bucket: string): void {
    for (const [uploadId, upload] of this.#uploads) {
      if (upload.bucket === bucket) this.#uploads.delete(uploadId);
    }
  }

  #find(bucket: string, key: string, uploadId: string): Upload<P> {
    const upload = this.#uploads.get(uploadId);
    if (upload === undefined || upload.bucket !== bucket || upload.key !== key) {
      throw new S3Error(
        "NoSuchUpload",
        `The specified multipart upload does not exist (it may have been aborted or completed): ${uploadId} for /${bucket}/${key}`,
      );
    }
    return upload;
  }
}
