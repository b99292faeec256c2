/** Where the testbed keeps buckets and objects, and the in-memory kind. */
import { BucketIndex, type BucketSummary } from "./bucket-index.ts";

export type { BucketSummary };

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
 * Every method that names a bucket throws S3Error NoSuchBucket when it does not exist. Keys are
 * opaque strings: '/', '..' and any Unicode are ordinary characters.
 */
export interface ObjectStore {
  listBuckets(): Promise<BucketSummary[]>;
  /** False when the bucket already exists. */
  createBucket(bucket: string): Promise<boolean>;
  hasBucket(bucket: string): Promise<boolean>;
  /** Throws S3Error BucketNotEmpty while the bucket holds objects. */
  deleteBucket(bucket: string): Promise<void>;
  putObject(
    bucket: string,
    key: string,
    body: Buffer,
    metadata: Pick<ObjectMetadata, "etag" | "contentType">,
  ): Promise<ObjectMetadata>;
  /** Undefined when the key does not exist. */
  getObject(bucket: string, key: string): Promise<StoredObject | undefined>;
  headObject(bucket: string, key: string): Promise<ObjectMetadata | undefined>;
  /** Deleting a key that does not exist succeeds, as in S3. */
  deleteObject(bucket: string, key: string): Promise<void>;
  /** Every key of the bucket in UTF-8 byte order; the array is a snapshot that never changes. */
  listKeys(bucket: string): Promise<readonly string[]>;
}

export function createMemoryStore(): ObjectStore {
  const index = new BucketIndex<StoredObject>();
  return {
    listBuckets: async () => index.list(),
    createBucket: async (bucket) => index.add(bucket, new Date()),
    hasBucket: async (bucket) => index.has(bucket),
    deleteBucket: async (bucket) => index.remove(bucket),
    putObject: async (bucket, key, body, { etag, contentType }) => {
      const object = { body, etag, contentType, sizeBytes: body.length, lastModified: new Date() };
      index.set(bucket, key, object);
      return object;
    },
    getObject: async (bucket, key) => index.get(bucket, key),
    headObject: async (bucket, key) => index.get(bucket, key),
    deleteObject: async (bucket, key) => index.delete(bucket, key),
    listKeys: async (bucket) => index.sortedKeys(bucket),
  };
}
