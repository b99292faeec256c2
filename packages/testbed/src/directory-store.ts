/**
 * Objects on disk, one folder per bucket. Each object is one file: a JSON line of metadata, then
 * the body. One file rather than a body and a sidecar so that a rename replaces both at once: a
 * reader never pairs one write's body with another's ETag. The file is named by the SHA-256 of
 * the key, which is safe for keys holding '/', '..' or 1024 bytes, and the key itself is in the
 * metadata line. Metadata is also kept in memory (loaded at start) to list and answer HEAD fast.
 * No fsync: this is a test server. A process that dies mid-write leaves only a temporary file,
 * which the next start removes; a power cut may lose recent writes.
 *
 * Multipart uploads keep each part in its own file under the bucket's hidden `.uploads/<id>/`
 * folder (not a valid bucket name nor an object file name, so nothing mistakes it for either),
 * and their bookkeeping in memory only: uploads still open when the testbed stops are dropped at
 * the next start. Completing streams the parts into the object file, never holding more than a
 * read buffer of them in memory.
 */
import { hash } from "node:crypto";
import { createReadStream } from "node:fs";
import {
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  unlink,
  writeFile,
  type FileHandle,
} from "node:fs/promises";
import { join } from "node:path";
import { BucketIndex } from "./bucket-index.ts";
import { isValidBucketName } from "./bucket-name.ts";
import type { ObjectMetadata, ObjectStore, PartMetadata, StoredObject } from "./object-store.ts";
import { noSuchBucket, preconditionFailed } from "./s3-error.ts";
import { partMetadata, UploadIndex, uploadSummary } from "./upload-index.ts";

const OBJECT_FILE = /^[0-9a-f]{64}$/;
const TEMPORARY_SUFFIX = ".tmp";
/** Enough for the metadata line of a 1024-byte key, even with every character escaped. */
const MAX_HEADER_BYTES = 16 * 1024;
const NEWLINE = 0x0a;
const UPLOADS_FOLDER = ".uploads";
/** Read size when copying parts into an object: few system calls, little memory. */
const PART_READ_BYTES = 1024 * 1024;

interface DiskPart extends PartMetadata {
  file: string;
}

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
  const uploads = new UploadIndex<DiskPart>();
  let temporaryFiles = 0;
  /** Bucket/key of the conditional creations under way. */
  const creating = new Set<string>();
  let partFiles = 0;

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
      } else if (name === UPLOADS_FOLDER) {
        // Parts of uploads a previous testbed left open; their bookkeeping died with it.
        await rm(file, { recursive: true, force: true });
      } else if (OBJECT_FILE.test(name)) {
        const { key, metadata } = await readMetadataLine(file);
        if (objectFileName(key) === name) index.set(entry.name, key, metadata);
      }
    }
  }

  const objectPath = (bucket: string, key: string) => join(root, bucket, objectFileName(key));
  const uploadFolder = (bucket: string, uploadId: string) =>
    join(root, bucket, UPLOADS_FOLDER, uploadId);
  const checkBucket = (bucket: string) => {
    if (!index.has(bucket)) throw noSuchBucket(bucket);
  };

  /**
   * Writes the metadata line and then the body through `writeBody` to a temporary file, and
   * renames it over the object's file.
   */
  async function writeObject(
    bucket: string,
    key: string,
    metadata: ObjectMetadata,
    writeBody: (handle: FileHandle, line: Buffer) => Promise<void>,
  ): Promise<void> {
    checkBucket(bucket);
    const file = objectPath(bucket, key);
    const temporary = `${file}.${process.pid}-${temporaryFiles++}${TEMPORARY_SUFFIX}`;
    try {
      const handle = await open(temporary, "w");
      try {
        await writeBody(handle, metadataLine(key, metadata));
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
  }

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
      uploads.removeBucket(bucket);
      await rm(join(root, bucket), { recursive: true, force: true });
    },

    async putObject(bucket, key, body, { etag, contentType }, options) {
      const metadata = { sizeBytes: body.length, etag, contentType, lastModified: new Date() };
      const write = () =>
        writeObject(bucket, key, metadata, async (handle, line) => {
          await handle.writev([line, body]);
        });
      if (!options?.ifAbsent) {
        await write();
        return metadata;
      }
      // Claimed before the first await, so a racing creation of the same key sees it.
      const claim = `${bucket}/${key}`;
      if (index.get(bucket, key) !== undefined || creating.has(claim)) throw preconditionFailed();
      creating.add(claim);
      try {
        await write();
      } finally {
        creating.delete(claim);
      }
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

    async createMultipartUpload(bucket, key, contentType) {
      checkBucket(bucket);
      const uploadsFolder = join(root, bucket, UPLOADS_FOLDER);
      // Not recursive: a bucket deleted meanwhile must not come back as a folder.
      await mkdir(uploadsFolder).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") throw noSuchBucket(bucket);
        if (error.code !== "EEXIST") throw error;
      });
      const upload = uploads.create(bucket, key, contentType);
      try {
        await mkdir(join(uploadsFolder, upload.uploadId));
      } catch (error) {
        uploads.take(bucket, key, upload.uploadId);
        throw error;
      }
      return upload;
    },

    async uploadPart(bucket, key, uploadId, { partNumber, etag, body }) {
      checkBucket(bucket);
      uploads.get(bucket, key, uploadId);
      // A file of its own per upload of a part, registered once written: a completion reading
      // the part being replaced is never handed a half-written file.
      const file = join(uploadFolder(bucket, uploadId), `${partNumber}.${partFiles++}`);
      try {
        await writeFile(file, body);
      } catch (error) {
        // Aborted or completed meanwhile, its folder gone: answer NoSuchUpload.
        if (isMissing(error)) uploads.get(bucket, key, uploadId);
        throw error;
      }
      const part = { partNumber, etag, sizeBytes: body.length, lastModified: new Date(), file };
      let replaced: DiskPart | undefined;
      try {
        replaced = uploads.setPart(bucket, key, uploadId, part);
      } catch (error) {
        await rm(file, { force: true });
        throw error;
      }
      if (replaced !== undefined) await rm(replaced.file, { force: true });
      return partMetadata(part);
    },

    async listParts(bucket, key, uploadId) {
      checkBucket(bucket);
      return {
        upload: uploadSummary(uploads.get(bucket, key, uploadId)),
        parts: uploads.sortedParts(bucket, key, uploadId).map(partMetadata),
      };
    },

    async listMultipartUploads(bucket) {
      checkBucket(bucket);
      return uploads.list(bucket);
    },

    async completeMultipartUpload(bucket, key, uploadId, check) {
      checkBucket(bucket);
      const { upload, parts, etag, sizeBytes } = uploads.complete(bucket, key, uploadId, check);
      const metadata = {
        sizeBytes,
        etag,
        contentType: upload.contentType,
        lastModified: new Date(),
      };
      try {
        await writeObject(bucket, key, metadata, async (handle, line) => {
          await handle.write(line);
          for (const part of parts) {
            for await (const chunk of createReadStream(part.file, {
              highWaterMark: PART_READ_BYTES,
            })) {
              await handle.write(chunk as Buffer);
            }
          }
        });
      } finally {
        await rm(uploadFolder(bucket, uploadId), { recursive: true, force: true, maxRetries: 3 });
      }
      return metadata;
    },

    async abortMultipartUpload(bucket, key, uploadId) {
      checkBucket(bucket);
      uploads.take(bucket, key, uploadId);
      // Retried: a part being written as the upload ends may land in the folder being removed.
      await rm(uploadFolder(bucket, uploadId), { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
