import { createHash } from "node:crypto";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDirectoryStore } from "./directory-store.ts";

const etagOf = (body: Buffer) => `"${createHash("md5").update(body).digest("hex")}"`;

describe("createDirectoryStore", () => {
  let parent: string;
  let root: string;

  beforeEach(async () => {
    parent = await mkdtemp(join(tmpdir(), "taillab-directory-store-"));
    root = join(parent, "store");
  });
  afterEach(() => rm(parent, { recursive: true, force: true }));

  it("names files by a hash of the key, so no key can reach outside its bucket folder", async () => {
    const store = await createDirectoryStore(root);
    await store.createBucket("bucket");
    for (const key of ["../../outside", "/absolute", "a/b/c", "..", "nul\u0000byte"]) {
      const body = Buffer.from(key);
      await store.putObject("bucket", key, body, { etag: etagOf(body), contentType: "text/plain" });
    }
    expect(await readdir(parent)).toEqual(["store"]);
    expect(await readdir(root)).toEqual(["bucket"]);
    const files = await readdir(join(root, "bucket"));
    expect(files).toHaveLength(5);
    expect(files.every((name) => /^[0-9a-f]{64}$/.test(name))).toBe(true);
    expect((await store.getObject("bucket", "../../outside"))?.body.toString()).toBe(
      "../../outside",
    );
  });

  it("removes temporary files left by an interrupted write when it starts", async () => {
    const first = await createDirectoryStore(root);
    await first.createBucket("bucket");
    const body = Buffer.from("kept");
    await first.putObject("bucket", "kept", body, {
      etag: etagOf(body),
      contentType: "text/plain",
    });
    await writeFile(join(root, "bucket", `${"0".repeat(64)}.1234-0.tmp`), "half a wri");

    const second = await createDirectoryStore(root);
    expect(await second.listKeys("bucket")).toEqual(["kept"]);
    expect(await readdir(join(root, "bucket"))).toHaveLength(1);
  });

  it("always pairs a body with its own metadata while the key is rewritten", async () => {
    const store = await createDirectoryStore(root);
    await store.createBucket("bucket");
    const bodies = Array.from({ length: 40 }, (_, i) => Buffer.alloc(1_000 + i * 97, i));
    const first = bodies[0] as Buffer;
    await store.putObject("bucket", "hot", first, { etag: etagOf(first), contentType: "x/0" });
    const reads = await Promise.all(
      bodies.flatMap((body, i) => [
        store.putObject("bucket", "hot", body, { etag: etagOf(body), contentType: `x/${i}` }),
        store.getObject("bucket", "hot"),
      ]),
    );
    for (const read of reads) {
      if (read !== undefined && "body" in read) {
        expect(read.etag).toBe(etagOf(read.body));
        expect(read.sizeBytes).toBe(read.body.length);
        expect(read.contentType).toBe(`x/${read.body[0]}`);
      }
    }
  });

  it("completes an upload into one object file, removes the parts, and serves it after a restart", async () => {
    const store = await createDirectoryStore(root);
    await store.createBucket("bucket");
    const { uploadId } = await store.createMultipartUpload("bucket", "joined", "x/joined");
    const parts = [Buffer.alloc(3000, 1), Buffer.alloc(2000, 2), Buffer.alloc(1000, 3)];
    for (const [i, body] of parts.entries()) {
      await store.uploadPart("bucket", "joined", uploadId, {
        partNumber: i + 1,
        etag: etagOf(body),
        body,
      });
    }
    const uploadFolder = join(root, "bucket", ".uploads", uploadId);
    expect(await readdir(uploadFolder)).toHaveLength(3);
    const object = await store.completeMultipartUpload("bucket", "joined", uploadId, () => ({
      partNumbers: [1, 3],
      etag: '"joined-2"',
      sizeBytes: 4000,
    }));
    expect(object).toMatchObject({ sizeBytes: 4000, etag: '"joined-2"', contentType: "x/joined" });
    await expect(readdir(uploadFolder)).rejects.toMatchObject({ code: "ENOENT" });

    const again = await createDirectoryStore(root);
    const read = await again.getObject("bucket", "joined");
    expect(read?.body.equals(Buffer.concat([parts[0] as Buffer, parts[2] as Buffer]))).toBe(true);
    expect(read).toMatchObject({ etag: '"joined-2"', contentType: "x/joined" });
  });

  it("drops uploads a previous testbed left open when it starts, keeping the objects", async () => {
    const first = await createDirectoryStore(root);
    await first.createBucket("bucket");
    const body = Buffer.from("kept");
    await first.putObject("bucket", "kept", body, { etag: etagOf(body), contentType: "x/y" });
    const { uploadId } = await first.createMultipartUpload("bucket", "open", "x/y");
    await first.uploadPart("bucket", "open", uploadId, { partNumber: 1, etag: etagOf(body), body });

    const second = await createDirectoryStore(root);
    expect(await second.listKeys("bucket")).toEqual(["kept"]);
    expect(await second.listMultipartUploads("bucket")).toEqual([]);
    await expect(second.listParts("bucket", "open", uploadId)).rejects.toMatchObject({
      code: "NoSuchUpload",
    });
    expect(await readdir(join(root, "bucket"))).toHaveLength(1);
  });
});
