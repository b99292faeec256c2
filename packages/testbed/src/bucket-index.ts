/**
 * Buckets and their keys in memory, with the S3 errors for missing and non-empty buckets. The
 * memory store keeps whole objects in it; the directory store keeps metadata, to list and answer
 * HEAD without touching the disk.
 */
import { compareUtf8 } from "./list-objects.ts";
import { noSuchBucket, S3Error } from "./s3-error.ts";

export interface BucketSummary {
  name: string;
  creationDate: Date;
}

interface Bucket<T> {
  creationDate: Date;
  entries: Map<string, T>;
  /** Rebuilt on the next listing after a key is added or removed. */
  sortedKeys: readonly string[] | undefined;
}

export class BucketIndex<T> {
  readonly #buckets = new Map<string, Bucket<T>>();

  list(): BucketSummary[] {
    return [...this.#buckets]
      .map(([name, bucket]) => ({ name, creationDate: bucket.creationDate }))
      .sort((a, b) => compareUtf8(a.name, b.name));
  }

  has(bucket: string): boolean {
    return this.#buckets.has(bucket);
  }

  /** False when the bucket already exists. */
  add(bucket: string, creationDate: Date): boolean {
    if (this.#buckets.has(bucket)) return false;
    this.#buckets.set(bucket, { creationDate, entries: new Map(), sortedKeys: [] });
    return true;
  }

  /** Throws BucketNotEmpty while the bucket holds entries. */
  remove(bucket: string): void {
    if (this.#bucket(bucket).entries.size > 0) {
      throw new S3Error(
        "BucketNotEmpty",
        `The bucket you tried to delete is not empty: ${bucket} still holds objects`,
      );
    }
    this.#buckets.delete(bucket);
  }

  get(bucket: string, key: string): T | undefined {
    return this.#bucket(bucket).entries.get(key);
  }

  set(bucket: string, key: string, entry: T): void {
    const target = this.#bucket(bucket);
    const sizeBefore = target.entries.size;
    target.entries.set(key, entry);
    if (target.entries.size !== sizeBefore) target.sortedKeys = undefined;
  }

  delete(bucket: string, key: string): void {
    const target = this.#bucket(bucket);
    if (target.entries.delete(key)) target.sortedKeys = undefined;
  }

  /** In UTF-8 byte order. The array is never changed afterwards, so callers may keep it. */
  sortedKeys(bucket: string): readonly string[] {
    const target = this.#bucket(bucket);
    target.sortedKeys ??= [...target.entries.keys()].sort(compareUtf8);
    return target.sortedKeys;
  }

  #bucket(bucket: string): Bucket<T> {
    const found = this.#buckets.get(bucket);
    if (found === undefined) throw noSuchBucket(bucket);
    return found;
  }
}
