/**
 * Objects on disk, one folder per bucket. Each object is one file: a JSON line of metadata, then
 * the body. One file rather than a body and a sidecar so that a rename replaces both at once: a
 * reader never pairs one write's body with another's ETag. The file is named by the SHA-256 of
 * the key, which is safe for keys holding '/', '..' or 1024 bytes, and the key itself is in the
 * metadata line. Metadata is also kept in memory (loaded at start) to list and answer HEAD fast.
 * No fsync: this is a test server. A process that dies mid-write leaves only a temporary file,
 * which the next start removes; a power cut may lose recent writes.
 */
import { hash } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { BucketIndex } from "./bucket-index.ts";
import { isValidBucketName } from "./bucket-name.ts";
import type { ObjectMetadata, ObjectStore, StoredObject } from "./object-store.ts";
import { noSuchBucket } from "./s3-error.ts";

const OBJECT_FILE = /^[0-9a-f]{64}$/;
const TEMPORARY_SUFFIX = ".tmp";
/** Enough for the metadata line of a 1024-byte key, even with every character escaped. */
const MAX_HEADER_BYTES = 16 * 1024;
const NEWLINE = 0x0a;

/** The first line of an object file. */
interface MetadataLine extends Omit<ObjectMetadata, "lastModified"> {
  key: string;
  lastModified: string;
}

function objectFileName(key: string): string {
  return hash("sha256", key, "hex");
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === "ENOENT";
}

function metadataLine(key: string, metadata: ObjectMetadata): Buffer {
  const line: MetadataLine = {
    key,
    ...metadata,
    lastModified: metadata.lastModified.toISOString(),
  };
  return Buffer.from(`${JSON.stringify(line)}\n`);
}

function parseMetadataLine(text: string, file: string): { key: string; metadata: ObjectMetadata } {
  let line: MetadataLine;
  try {
    line = JSON.parse(text) as MetadataLine;
  } catch (error) {
    throw new Error(
      `directory store: ${file} does not start with a metadata line (${(error as Error).message})`,
      { cause: error },
    );
  }
  const { key, sizeBytes, etag, contentType } = line;
  return {
    key,
    metadata: { sizeBytes, etag, contentType, lastModified: new Date(line.lastModified) },
  };
}

async function readMetadataLine(file: string): Promise<{ key: string; metadata: ObjectMetadata }> {
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(MAX_HEADER_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const end = buffer.subarray(0, bytesRead).indexOf(NEWLINE);
    if (end === -1) throw new Error(`directory store: ${file} has no metadata line`);
    return parseMetadataLine(buffer.toString("utf8", 0, end), file);
  } finally {
    await handle.close();
  }
}

export async function createDirectoryStore(root: string): Promise<ObjectStore> {
  await mkdir(root, { recursive: true });
  const index = new BucketIndex<ObjectMetadata>();
  let temporaryFiles = 0;

  for (const entry of await readdir(root, { withFileTypes: true })) {
    if (!entry.isDirectory() || !isValidBucketName(entry.name)) continue;
    const folder = join(root, entry.name);
    const info = await stat(folder);
    index.add(entry.name, info.birthtimeMs > 0 ? info.birthtime : info.mtime);
    for (const name of await readdir(folder)) {
      const file = join(folder, name);
      if (name.endsWith(TEMPORARY_SUFFIX)) {
        // Left by a write that never finished; nothing refers to it.
        await rm(file, { force: true });
      } else if (OBJECT_FILE.test(name)) {
        const { key, metadata } = await readMetadataLine(file);
        if (objectFileName(key) === name) index.set(entry.name, key, metadata);
      }
    }
  }

  const objectPath = (bucket: string, key: string) => join(root, bucket, objectFileName(key));

  return {
    listBuckets: async () => index.list(),
    hasBucket: async (bucket) => index.has(bucket),

    async createBucket(bucket) {
      if (index.has(bucket)) return false;
      await mkdir(join(root, bucket), { recursive: true });
      return index.add(bucket, new Date());
    },

    async deleteBucket(bucket) {
      // Out of the index first, so a PUT racing with the deletion fails with NoSuchBucket.
      index.remove(bucket);
      await rm(join(root, bucket), { recursive: true, force: true });
    },

    async putObject(bucket, key, body, { etag, contentType }) {
      if (!index.has(bucket)) throw noSuchBucket(bucket);
      const metadata = { sizeBytes: body.length, etag, contentType, lastModified: new Date() };
      const file = objectPath(bucket, key);
      const temporary = `${file}.${process.pid}-${temporaryFiles++}${TEMPORARY_SUFFIX}`;
      try {
        const handle = await open(temporary, "w");
        try {
          await handle.writev([metadataLine(key, metadata), body]);
        } finally {
          await handle.close();
        }
        await rename(temporary, file);
      } catch (error) {
        await rm(temporary, { force: true });
        // The bucket was deleted while the body was being written.
        if (isMissing(error) && !index.has(bucket)) throw noSuchBucket(bucket);
        throw error;
      }
      index.set(bucket, key, metadata);
      return metadata;
    },

    async getObject(bucket, key): Promise<StoredObject | undefined> {
      if (index.get(bucket, key) === undefined) return undefined;
      let contents: Buffer;
      try {
        contents = await readFile(objectPath(bucket, key));
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
      // The metadata comes from the file, not the index, so it always matches this body.
      const end = contents.indexOf(NEWLINE);
      const { metadata } = parseMetadataLine(
        contents.toString("utf8", 0, end),
        objectPath(bucket, key),
      );
      return { ...metadata, body: contents.subarray(end + 1) };
    },

    headObject: async (bucket, key) => index.get(bucket, key),

    async deleteObject(bucket, key) {
      if (!index.has(bucket)) throw noSuchBucket(bucket);
      await unlink(objectPath(bucket, key)).catch((error: unknown) => {
        if (!isMissing(error)) throw error;
      });
      index.delete(bucket, key);
    },

    listKeys: async (bucket) => index.sortedKeys(bucket),
  };
}
