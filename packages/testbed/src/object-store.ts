/** Where the testbed keeps buckets, objects and open multipart uploads, and the in-memory kind. */
import { BucketIndex, type BucketSummary } from "./bucket-index.ts";
import { noSuchBucket, preconditionFailed } from "./s3-error.ts";
import {
  partMetadata,
  UploadIndex,
  uploadSummary,
  type CompletionCheck,
  type MultipartUpload,
  type PartMetadata,
} from "./upload-index.ts";

export type { BucketSummary, CompletionCheck, MultipartUpload, PartMetadata };

export interface ObjectMetadata {
  sizeBytes: number;
  /** Quoted hex MD5 of the body, as S3 sends it. */
  etag: string;
  lastModified: Date;
  contentType: string;
}

export interface StoredObject extends ObjectMetadata {
  body: Buffer;
}

/**
 * Every method that names a bucket throws S3Error NoSuchBucket when it does not exist, and every
 * method that names an upload throws NoSuchUpload unless it is open for that bucket and key. Keys
 * are opaque strings: '/', '..' and any Unicode are ordinary characters. Deleting a bucket ends
 * its open uploads, as in S3.
 */
export interface ObjectStore {
  listBuckets(): Promise<BucketSummary[]>;
  /** False when the bucket already exists. */
  createBucket(bucket: string): Promise<boolean>;
  hasBucket(bucket: string): Promise<boolean>;
  /** Throws S3Error BucketNotEmpty while the bucket holds objects. */
  deleteBucket(bucket: string): Promise<void>;
  /**
   * With `ifAbsent` (a PUT's `If-None-Match: *`), throws S3Error PreconditionFailed when the key
   * exists or another such write of it is under way: of two racing creations, one wins.
   */
  putObject(
    bucket: string,
    key: string,
    body: Buffer,
    metadata: Pick<ObjectMetadata, "etag" | "contentType">,
    options?: { ifAbsent?: boolean },
  ): Promise<ObjectMetadata>;
  /** Undefined when the key does not exist. */
  getObject(bucket: string, key: string): Promise<StoredObject | undefined>;
  headObject(bucket: string, key: string): Promise<ObjectMetadata | undefined>;
  /** Deleting a key that does not exist succeeds, as in S3. */
  deleteObject(bucket: string, key: string): Promise<void>;
  /** Every key of the bucket in UTF-8 byte order; the array is a snapshot that never changes. */
  listKeys(bucket: string): Promise<readonly string[]>;

  createMultipartUpload(bucket: string, key: string, contentType: string): Promise<MultipartUpload>;
  /** Stores a part, replacing one uploaded before with the same number. */
  uploadPart(
    bucket: string,
    key: string,
    uploadId: string,
    part: { partNumber: number; etag: string; body: Buffer },
  ): Promise<PartMetadata>;
  /** The upload and its parts by part number. */
  listParts(
    bucket: string,
    key: string,
    uploadId: string,
  ): Promise<{ upload: MultipartUpload; parts: readonly PartMetadata[] }>;
  /** Open uploads by key (UTF-8 order), then upload id (creation order). */
  listMultipartUploads(bucket: string): Promise<readonly MultipartUpload[]>;
  /**
   * Asks `check` which parts make the object (if it throws, the upload stays open), then ends the
   * upload and stores the object: those parts one after the other, with the upload's content
   * type and the plan's ETag.
   */
  completeMultipartUpload(
    bucket: string,
    key: string,
    uploadId: string,
    check: CompletionCheck,
  ): Promise<ObjectMetadata>;
  /** Ends the upload and drops its parts. */
  abortMultipartUpload(bucket: string, key: string, uploadId: string): Promise<void>;
}

interface MemoryPart extends PartMetadata {
  body: Buffer;
}

export function createMemoryStore(): ObjectStore {
  const index = new BucketIndex<StoredObject>();
  const uploads = new UploadIndex<MemoryPart>();
  const checkBucket = (bucket: string) => {
    if (!index.has(bucket)) throw noSuchBucket(bucket);
  };
  return {
    listBuckets: async () => index.list(),
    createBucket: async (bucket) => index.add(bucket, new Date()),
    hasBucket: async (bucket) => index.has(bucket),
    deleteBucket: async (bucket) => {
      index.remove(bucket);
      uploads.removeBucket(bucket);
    },
    putObject: async (bucket, key, body, { etag, contentType }, options) => {
      // No await between the check and the write: two creations cannot both pass.
      if (options?.ifAbsent && index.get(bucket, key) !== undefined) throw preconditionFailed();
      const object = { body, etag, contentType, sizeBytes: body.length, lastModified: new Date() };
      index.set(bucket, key, object);
      return object;
    },
    getObject: async (bucket, key) => index.get(bucket, key),
    headObject: async (bucket, key) => index.get(bucket, key),
    deleteObject: async (bucket, key) => index.delete(bucket, key),
    listKeys: async (bucket) => index.sortedKeys(bucket),

    createMultipartUpload: async (bucket, key, contentType) => {
      checkBucket(bucket);
      return uploads.create(bucket, key, contentType);
    },
    uploadPart: async (bucket, key, uploadId, { partNumber, etag, body }) => {
      checkBucket(bucket);
      const part = { partNumber, etag, body, sizeBytes: body.length, lastModified: new Date() };
      uploads.setPart(bucket, key, uploadId, part);
      return partMetadata(part);
    },
    listParts: async (bucket, key, uploadId) => {
      checkBucket(bucket);
      return {
        upload: uploadSummary(uploads.get(bucket, key, uploadId)),
        parts: uploads.sortedParts(bucket, key, uploadId).map(partMetadata),
      };
    },
    listMultipartUploads: async (bucket) => {
      checkBucket(bucket);
      return uploads.list(bucket);
    },
    completeMultipartUpload: async (bucket, key, uploadId, check) => {
      checkBucket(bucket);
      const { upload, parts, etag, sizeBytes } = uploads.complete(bucket, key, uploadId, check);
      const body = Buffer.concat(
        parts.map((part) => part.body),
        sizeBytes,
      );
      const object = {
        body,
        etag,
        contentType: upload.contentType,
        sizeBytes,
        lastModified: new Date(),
      };
      index.set(bucket, key, object);
      return object;
    },
    abortMultipartUpload: async (bucket, key, uploadId) => {
      checkBucket(bucket);
      uploads.take(bucket, key, uploadId);
    },
  };
}
