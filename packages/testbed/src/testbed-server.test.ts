import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetBucketLocationCommand,
  GetObjectAclCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListBucketsCommand,
  ListObjectsCommand,
  ListObjectsV2Command,
  paginateListObjectsV2,
  PutObjectCommand,
} from "@aws-sdk/client-s3";
import { createHash } from "node:crypto";
import { request as httpRequest, type ClientRequest } from "node:http";
import { crc32 } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestbed } from "./index.ts";
import { clientFor, sdkError, startFixture, type Fixture } from "./test-support/testbed-fixture.ts";

const md5Etag = (body: string | Buffer) => `"${createHash("md5").update(body).digest("hex")}"`;

describe.each(["memory", "directory"] as const)("the testbed with the %s store", (storeKind) => {
  let fixture: Fixture;
  const bucket = "objects";

  beforeAll(async () => {
    fixture = await startFixture(storeKind, { buckets: [bucket] });
  });
  afterAll(() => fixture.stop());

  describe("buckets", () => {
    it("creates, finds, lists and deletes a bucket", async () => {
      const { client } = fixture;
      await client.send(new CreateBucketCommand({ Bucket: "lifecycle" }));
      await client.send(new HeadBucketCommand({ Bucket: "lifecycle" }));
      const { Buckets } = await client.send(new ListBucketsCommand({}));
      expect(Buckets?.map((entry) => entry.Name)).toEqual(["lifecycle", bucket]);
      expect(Buckets?.[0]?.CreationDate).toBeInstanceOf(Date);
      await client.send(new DeleteBucketCommand({ Bucket: "lifecycle" }));
      expect(
        await sdkError(client.send(new HeadBucketCommand({ Bucket: "lifecycle" }))),
      ).toMatchObject({
        name: "NotFound",
        status: 404,
      });
    });

    it("refuses a bucket that exists with BucketAlreadyOwnedByYou (409)", async () => {
      expect(
        await sdkError(fixture.client.send(new CreateBucketCommand({ Bucket: bucket }))),
      ).toMatchObject({
        name: "BucketAlreadyOwnedByYou",
        status: 409,
      });
    });

    it.each(["ab", "Upper", "under_score", "-dash", "a..b", "192.168.0.1", "x".repeat(64)])(
      "refuses the bucket name %j with InvalidBucketName (400)",
      async (name) => {
        expect(
          await sdkError(fixture.client.send(new CreateBucketCommand({ Bucket: name }))),
        ).toMatchObject({
          name: "InvalidBucketName",
          status: 400,
        });
      },
    );

    it("refuses to delete a bucket that holds objects with BucketNotEmpty (409)", async () => {
      const { client } = fixture;
      await client.send(new CreateBucketCommand({ Bucket: "not-empty" }));
      await client.send(new PutObjectCommand({ Bucket: "not-empty", Key: "k", Body: "x" }));
      expect(
        await sdkError(client.send(new DeleteBucketCommand({ Bucket: "not-empty" }))),
      ).toMatchObject({
        name: "BucketNotEmpty",
        status: 409,
      });
      await client.send(new DeleteObjectCommand({ Bucket: "not-empty", Key: "k" }));
      await client.send(new DeleteBucketCommand({ Bucket: "not-empty" }));
    });

    it("answers NoSuchBucket (404) for objects in a missing bucket", async () => {
      const { client } = fixture;
      for (const command of [
        new PutObjectCommand({ Bucket: "missing", Key: "k", Body: "x" }),
        new GetObjectCommand({ Bucket: "missing", Key: "k" }),
        new DeleteObjectCommand({ Bucket: "missing", Key: "k" }),
        new ListObjectsV2Command({ Bucket: "missing" }),
        new DeleteBucketCommand({ Bucket: "missing" }),
      ]) {
        // The commands differ in type; each is sent as the SDK would.
        expect(await sdkError(client.send(command as PutObjectCommand))).toMatchObject({
          name: "NoSuchBucket",
          status: 404,
        });
      }
    });

    it("reports the region as the location (empty for us-east-1)", async () => {
      const { LocationConstraint } = await fixture.client.send(
        new GetBucketLocationCommand({ Bucket: bucket }),
      );
      expect(LocationConstraint ?? "").toBe("");
    });
  });

  describe("objects", () => {
    it("stores a body and returns it with its ETag, type, size and date", async () => {
      const { client } = fixture;
      const before = Date.now() - 1_000;
      const put = await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: "hello.txt",
          Body: "hello world",
          ContentType: "text/plain",
        }),
      );
      expect(put.ETag).toBe(md5Etag("hello world"));
      const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: "hello.txt" }));
      expect(await got.Body?.transformToString()).toBe("hello world");
      expect(got).toMatchObject({
        ETag: md5Etag("hello world"),
        ContentType: "text/plain",
        ContentLength: 11,
      });
      expect(got.LastModified?.getTime()).toBeGreaterThanOrEqual(before);
      const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: "hello.txt" }));
      expect(head).toMatchObject({
        ETag: md5Etag("hello world"),
        ContentType: "text/plain",
        ContentLength: 11,
      });
    });

    it("defaults the content type to binary/octet-stream, as S3 does", async () => {
      const response = await fetch(`${fixture.testbed.url}/${bucket}/untyped`, {
        method: "PUT",
        body: "x",
      });
      expect(response.status).toBe(200);
      // fetch sends text/plain for a string body; a raw request sends none.
      await new Promise<void>((resolve, reject) => {
        const request = httpRequest(
          `${fixture.testbed.url}/${bucket}/untyped`,
          { method: "PUT" },
          (reply) => {
            reply.resume();
            reply.on("end", resolve);
          },
        );
        request.on("error", reject);
        request.end(Buffer.from([1, 2, 3]));
      });
      const head = await fixture.client.send(
        new HeadObjectCommand({ Bucket: bucket, Key: "untyped" }),
      );
      expect(head.ContentType).toBe("binary/octet-stream");
      expect(head.ContentLength).toBe(3);
    });

    it("stores a body sent in chunks without a Content-Length", async () => {
      const reply = await rawPut(`${fixture.testbed.url}/${bucket}/chunked`, {}, (request) => {
        request.write("first half, ");
        request.end("second half");
      });
      expect(reply.status).toBe(200);
      const got = await fixture.client.send(
        new GetObjectCommand({ Bucket: bucket, Key: "chunked" }),
      );
      expect(await got.Body?.transformToString()).toBe("first half, second half");
    });

    it("refuses a body declared over 5 GiB with EntityTooLarge (400) before any of it arrives", async () => {
      const reply = await rawPut(
        `${fixture.testbed.url}/${bucket}/huge`,
        { "content-length": String(5 * 1024 ** 3 + 1) },
        // Headers only: the answer must not wait for 5 GiB that never come.
        (request) => request.flushHeaders(),
      );
      expect(reply.status).toBe(400);
      expect(reply.body).toContain("<Code>EntityTooLarge</Code>");
    });

    it("overwrites an object", async () => {
      const { client } = fixture;
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: "twice", Body: "first" }));
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: "twice", Body: "second" }));
      const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: "twice" }));
      expect(await got.Body?.transformToString()).toBe("second");
      expect(got.ETag).toBe(md5Etag("second"));
    });

    it("creates a key only once with If-None-Match: * (412 PreconditionFailed after)", async () => {
      const { client } = fixture;
      const create = (Body: string) =>
        client.send(new PutObjectCommand({ Bucket: bucket, Key: "once", Body, IfNoneMatch: "*" }));
      await create("first");
      expect(await sdkError(create("second"))).toMatchObject({
        name: "PreconditionFailed",
        status: 412,
      });
      const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: "once" }));
      expect(await got.Body?.transformToString()).toBe("first");
    });

    it("lets exactly one of 20 racing creations of a key win", async () => {
      const statuses = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const response = await fetch(`${fixture.testbed.url}/${bucket}/raced`, {
            method: "PUT",
            body: `writer ${i}`,
            headers: { "If-None-Match": "*" },
          });
          await response.body?.cancel();
          return response.status;
        }),
      );
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 412)).toHaveLength(19);
    });

    it("refuses PUT conditions it does not implement with NotImplemented (501)", async () => {
      const url = `${fixture.testbed.url}/${bucket}/conditional`;
      const conditions: Record<string, string>[] = [
        { "If-None-Match": `"abc"` },
        { "If-Match": `"abc"` },
      ];
      for (const headers of conditions) {
        const response = await fetch(url, { method: "PUT", body: "x", headers });
        expect(response.status).toBe(501);
        expect(await response.text()).toContain("<Code>NotImplemented</Code>");
      }
    });

    it("stores binary and empty bodies byte for byte", async () => {
      const { client } = fixture;
      const binary = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7 + 3) % 256));
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: "binary", Body: binary }));
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: "empty", Body: Buffer.alloc(0) }),
      );
      const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: "binary" }));
      expect(Buffer.from((await got.Body?.transformToByteArray()) ?? []).equals(binary)).toBe(true);
      const empty = await client.send(new GetObjectCommand({ Bucket: bucket, Key: "empty" }));
      expect(empty.ContentLength).toBe(0);
      expect(empty.ETag).toBe(md5Etag(""));
    });

    it.each([
      "dir/sub/file.txt",
      "../../escape",
      "a/../../b",
      "spaces and+plus%percent",
      "ünïcödé/中文/😀",
      "?query#hash&amp;",
      "trailing/",
      "k".repeat(1024),
      "é".repeat(512),
    ])("keeps the key %j as is", async (key) => {
      const { client } = fixture;
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: `body of ${key}` }));
      const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      expect(await got.Body?.transformToString()).toBe(`body of ${key}`);
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: key }));
      expect(listed.Contents?.[0]?.Key).toBe(key);
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    });

    it("refuses a key over 1024 bytes with KeyTooLongError (400)", async () => {
      const put = fixture.client.send(
        new PutObjectCommand({ Bucket: bucket, Key: "é".repeat(513), Body: "x" }),
      );
      expect(await sdkError(put)).toMatchObject({ name: "KeyTooLongError", status: 400 });
    });

    it("answers NoSuchKey (404) for a missing key, and a bodiless 404 to HEAD", async () => {
      const { client } = fixture;
      expect(
        await sdkError(client.send(new GetObjectCommand({ Bucket: bucket, Key: "nope" }))),
      ).toMatchObject({
        name: "NoSuchKey",
        status: 404,
      });
      expect(
        await sdkError(client.send(new HeadObjectCommand({ Bucket: bucket, Key: "nope" }))),
      ).toMatchObject({
        name: "NotFound",
        status: 404,
      });
      const head = await fetch(`${fixture.testbed.url}/${bucket}/nope`, { method: "HEAD" });
      expect(head.status).toBe(404);
      expect(head.headers.get("content-length")).toBe("0");
    });

    it("deletes with 204, also keys that do not exist", async () => {
      const { client } = fixture;
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: "doomed", Body: "x" }));
      const deleted = await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: "doomed" }));
      expect(deleted.$metadata.httpStatusCode).toBe(204);
      const again = await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: "doomed" }));
      expect(again.$metadata.httpStatusCode).toBe(204);
      expect(
        await sdkError(client.send(new GetObjectCommand({ Bucket: bucket, Key: "doomed" }))),
      ).toMatchObject({
        name: "NoSuchKey",
      });
    });

    it("checks Content-MD5 when one is sent", async () => {
      const url = `${fixture.testbed.url}/${bucket}/md5`;
      const good = createHash("md5").update("body").digest("base64");
      const bad = createHash("md5").update("other").digest("base64");
      expect(
        (await fetch(url, { method: "PUT", body: "body", headers: { "content-md5": good } }))
          .status,
      ).toBe(200);
      const mismatch = await fetch(url, {
        method: "PUT",
        body: "body",
        headers: { "content-md5": bad },
      });
      expect(mismatch.status).toBe(400);
      expect(await mismatch.text()).toContain("<Code>BadDigest</Code>");
    });

    it("checks an x-amz-checksum-crc32 when one is sent", async () => {
      const url = `${fixture.testbed.url}/${bucket}/crc32`;
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32("body"));
      const good = await fetch(url, {
        method: "PUT",
        body: "body",
        headers: { "x-amz-checksum-crc32": crc.toString("base64") },
      });
      expect(good.status).toBe(200);
      const bad = await fetch(url, {
        method: "PUT",
        body: "other",
        headers: { "x-amz-checksum-crc32": crc.toString("base64") },
      });
      expect(bad.status).toBe(400);
      expect(await bad.text()).toContain("<Code>BadDigest</Code>");
    });
  });

  describe("ranges", () => {
    const body = "0123456789abcdefghij";

    beforeAll(async () => {
      await fixture.client.send(
        new PutObjectCommand({ Bucket: bucket, Key: "ranged", Body: body }),
      );
    });

    it.each([
      ["bytes=0-4", "01234", "bytes 0-4/20"],
      ["bytes=5-", "56789abcdefghij", "bytes 5-19/20"],
      ["bytes=-3", "hij", "bytes 17-19/20"],
      ["bytes=15-99", "fghij", "bytes 15-19/20"],
    ])("answers %s with 206 and the slice", async (range, slice, contentRange) => {
      const got = await fixture.client.send(
        new GetObjectCommand({ Bucket: bucket, Key: "ranged", Range: range }),
      );
      expect(got.$metadata.httpStatusCode).toBe(206);
      expect(got.ContentRange).toBe(contentRange);
      expect(got.ContentLength).toBe(slice.length);
      expect(await got.Body?.transformToString()).toBe(slice);
    });

    it("answers a range past the end with InvalidRange (416)", async () => {
      const get = fixture.client.send(
        new GetObjectCommand({ Bucket: bucket, Key: "ranged", Range: "bytes=20-" }),
      );
      expect(await sdkError(get)).toMatchObject({ name: "InvalidRange", status: 416 });
      const raw = await fetch(`${fixture.testbed.url}/${bucket}/ranged`, {
        headers: { range: "bytes=50-60" },
      });
      expect(raw.status).toBe(416);
      expect(raw.headers.get("content-range")).toBe("bytes */20");
    });

    it("answers a HEAD with a range like the GET, without the body", async () => {
      const head = await fixture.client.send(
        new HeadObjectCommand({ Bucket: bucket, Key: "ranged", Range: "bytes=2-3" }),
      );
      expect(head.$metadata.httpStatusCode).toBe(206);
      expect(head.ContentLength).toBe(2);
    });
  });

  describe("listing", () => {
    const listed = "listed";
    const keys: string[] = [];
    for (let i = 0; i < 2500; i++) {
      keys.push(
        i % 5 === 0
          ? `dir-${(i / 5) % 40}/object-${i}`
          : `top/object-${String(i).padStart(4, "0")}`,
      );
    }

    beforeAll(async () => {
      const { client } = fixture;
      await client.send(new CreateBucketCommand({ Bucket: listed }));
      for (let start = 0; start < keys.length; start += 100) {
        await Promise.all(
          keys
            .slice(start, start + 100)
            .map((key) =>
              client.send(new PutObjectCommand({ Bucket: listed, Key: key, Body: key })),
            ),
        );
      }
    });

    it("lists 2500 keys in pages of at most 1000, in order", async () => {
      const pages = [];
      for await (const page of paginateListObjectsV2(
        { client: fixture.client },
        { Bucket: listed },
      )) {
        pages.push(page);
      }
      expect(pages.map((page) => page.KeyCount)).toEqual([1000, 1000, 500]);
      expect(pages.map((page) => page.IsTruncated)).toEqual([true, true, false]);
      expect(pages[0]?.MaxKeys).toBe(1000);
      const listedKeys = pages.flatMap((page) => page.Contents?.map((entry) => entry.Key) ?? []);
      expect(listedKeys).toEqual([...keys].sort());
      const first = pages[0]?.Contents?.[0];
      expect(first).toMatchObject({ Size: first?.Key?.length, ETag: md5Etag(first?.Key ?? "") });
      expect(first?.LastModified).toBeInstanceOf(Date);
    });

    it("rolls keys up into common prefixes across pages", async () => {
      const prefixes: string[] = [];
      const contents: string[] = [];
      let pageCount = 0;
      for await (const page of paginateListObjectsV2(
        { client: fixture.client, pageSize: 7 },
        { Bucket: listed, Delimiter: "/" },
      )) {
        pageCount++;
        expect(page.KeyCount).toBe(
          (page.Contents?.length ?? 0) + (page.CommonPrefixes?.length ?? 0),
        );
        prefixes.push(...(page.CommonPrefixes?.map((entry) => entry.Prefix ?? "") ?? []));
        contents.push(...(page.Contents?.map((entry) => entry.Key ?? "") ?? []));
      }
      expect(contents).toEqual([]);
      expect(prefixes).toEqual(
        [...Array.from({ length: 40 }, (_, i) => `dir-${i}/`), "top/"].sort(),
      );
      expect(pageCount).toBe(6);
    });

    it("lists under a prefix with a delimiter, after start-after", async () => {
      const page = await fixture.client.send(
        new ListObjectsV2Command({
          Bucket: listed,
          Prefix: "top/",
          Delimiter: "/",
          StartAfter: "top/object-2497",
          MaxKeys: 10,
        }),
      );
      expect(page.Contents?.map((entry) => entry.Key)).toEqual([
        "top/object-2498",
        "top/object-2499",
      ]);
      expect(page).toMatchObject({
        Prefix: "top/",
        Delimiter: "/",
        StartAfter: "top/object-2497",
        IsTruncated: false,
      });
      expect(page.NextContinuationToken).toBeUndefined();
    });

    it("url-encodes keys when asked to", async () => {
      await fixture.client.send(
        new PutObjectCommand({ Bucket: listed, Key: "zz encoded/é", Body: "x" }),
      );
      const page = await fixture.client.send(
        new ListObjectsV2Command({ Bucket: listed, Prefix: "zz ", EncodingType: "url" }),
      );
      expect(page.EncodingType).toBe("url");
      expect(page.Contents?.map((entry) => entry.Key)).toEqual(["zz+encoded/%C3%A9"]);
      await fixture.client.send(new DeleteObjectCommand({ Bucket: listed, Key: "zz encoded/é" }));
    });

    it("lists with ListObjects (V1) and its markers", async () => {
      const first = await fixture.client.send(
        new ListObjectsCommand({ Bucket: listed, Delimiter: "/", MaxKeys: 3 }),
      );
      expect(first.CommonPrefixes?.map((entry) => entry.Prefix)).toEqual([
        "dir-0/",
        "dir-1/",
        "dir-10/",
      ]);
      expect(first).toMatchObject({ IsTruncated: true, NextMarker: "dir-10/" });
      const second = await fixture.client.send(
        new ListObjectsCommand({
          Bucket: listed,
          Delimiter: "/",
          MaxKeys: 3,
          Marker: first.NextMarker,
        }),
      );
      expect(second.CommonPrefixes?.map((entry) => entry.Prefix)).toEqual([
        "dir-11/",
        "dir-12/",
        "dir-13/",
      ]);
    });

    it("refuses a continuation token it did not issue", async () => {
      const list = fixture.client.send(
        new ListObjectsV2Command({ Bucket: listed, ContinuationToken: "not a token!" }),
      );
      expect(await sdkError(list)).toMatchObject({ name: "InvalidArgument", status: 400 });
    });

    it("deletes 1000 keys in one DeleteObjects request", async () => {
      const { client } = fixture;
      const doomed = [...keys].sort().slice(0, 1000);
      const result = await client.send(
        new DeleteObjectsCommand({
          Bucket: listed,
          Delete: { Objects: doomed.map((Key) => ({ Key })) },
        }),
      );
      expect(result.Deleted?.map((entry) => entry.Key)).toEqual(doomed);
      expect(result.Errors).toBeUndefined();
      const page = await client.send(new ListObjectsV2Command({ Bucket: listed }));
      expect(page.KeyCount).toBe(1000);
      expect(page.IsTruncated).toBe(true);
    });

    it("reports only failures when quiet", async () => {
      const result = await fixture.client.send(
        new DeleteObjectsCommand({
          Bucket: listed,
          Delete: {
            Quiet: true,
            Objects: [{ Key: "top/object-2499" }, { Key: "x".repeat(1025) }, { Key: "a & <b>" }],
          },
        }),
      );
      expect(result.Deleted).toBeUndefined();
      expect(result.Errors).toEqual([
        expect.objectContaining({ Key: "x".repeat(1025), Code: "KeyTooLongError" }),
      ]);
      expect(
        await sdkError(
          fixture.client.send(new HeadObjectCommand({ Bucket: listed, Key: "top/object-2499" })),
        ),
      ).toMatchObject({ status: 404 });
    });

    it("refuses a DeleteObjects body that is not a Delete document with MalformedXML (400)", async () => {
      const response = await fetch(`${fixture.testbed.url}/${listed}?delete`, {
        method: "POST",
        body: "<Nope/>",
      });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain("<Code>MalformedXML</Code>");
    });
  });

  describe("protocol", () => {
    it("answers errors with an S3 XML document", async () => {
      const response = await fetch(`${fixture.testbed.url}/${bucket}/no%20such`);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toBe("application/xml");
      const requestId = response.headers.get("x-amz-request-id");
      expect(requestId).toMatch(/^[0-9A-F]{16}$/);
      expect(await response.text()).toBe(
        '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchKey</Code>' +
          `<Message>The specified key does not exist: no such</Message><Resource>/${bucket}/no such</Resource>` +
          `<RequestId>${requestId}</RequestId></Error>`,
      );
    });

    it("names itself and keeps connections alive", async () => {
      const response = await fetch(`${fixture.testbed.url}/`);
      expect(response.headers.get("server")).toBe("TailLab-testbed");
      expect(response.headers.get("keep-alive")).toBe("timeout=65");
      await response.text();
    });

    it.each([
      ["a sub-resource it does not implement", "GET", "/objects/k?acl", 501, "NotImplemented"],
      ["a read by part number", "GET", "/objects/k?partNumber=1", 501, "NotImplemented"],
      ["a method an object does not have", "PATCH", "/objects/k", 405, "MethodNotAllowed"],
      ["a method the service does not have", "DELETE", "/", 405, "MethodNotAllowed"],
      ["a malformed escape in the path", "GET", "/objects/%E0%A4%A", 400, "InvalidURI"],
      ["an unknown list-type", "GET", "/objects?list-type=3", 400, "InvalidArgument"],
      ["a negative max-keys", "GET", "/objects?list-type=2&max-keys=-1", 400, "InvalidArgument"],
    ])("answers %s with %i %s", async (_name, method, path, status, code) => {
      const response = await fetch(`${fixture.testbed.url}${path}`, { method });
      expect(response.status).toBe(status);
      expect(await response.text()).toContain(`<Code>${code}</Code>`);
    });

    it("refuses aws-chunked uploads it cannot decode with NotImplemented (501)", async () => {
      const response = await fetch(`${fixture.testbed.url}/${bucket}/chunked`, {
        method: "PUT",
        body: "x",
        headers: { "x-amz-content-sha256": "STREAMING-UNSIGNED-PAYLOAD-TRAILER" },
      });
      expect(response.status).toBe(501);
      await response.text();
    });

    it("answers the SDK's own NotImplemented operations with 501", async () => {
      const acl = fixture.client.send(
        new GetObjectAclCommand({ Bucket: bucket, Key: "hello.txt" }),
      );
      expect(await sdkError(acl)).toMatchObject({ name: "NotImplemented", status: 501 });
    });

    it("takes the bucket from a <bucket>.localhost Host header", async () => {
      await fixture.client.send(
        new PutObjectCommand({ Bucket: bucket, Key: "virtual/key", Body: "hosted" }),
      );
      const body = await new Promise<string>((resolve, reject) => {
        const request = httpRequest(
          {
            host: "127.0.0.1",
            port: fixture.testbed.port,
            path: "/virtual/key",
            headers: { host: `${bucket}.localhost:${fixture.testbed.port}` },
          },
          (reply) => {
            let text = "";
            reply.setEncoding("utf8");
            reply.on("data", (chunk: string) => (text += chunk));
            reply.on("end", () => resolve(`${reply.statusCode} ${text}`));
          },
        );
        request.on("error", reject);
        request.end();
      });
      expect(body).toBe("200 hosted");
    });
  });
});

describe("the directory store across restarts", () => {
  it("serves what an earlier testbed stored in the same folder", async () => {
    const fixture = await startFixture("directory", { buckets: ["kept"] });
    const { directory } = fixture;
    const key = "deep/../key with ü";
    await fixture.client.send(
      new PutObjectCommand({
        Bucket: "kept",
        Key: key,
        Body: "persisted",
        ContentType: "text/x-kept",
      }),
    );
    await fixture.client.send(new PutObjectCommand({ Bucket: "kept", Key: "gone", Body: "x" }));
    await fixture.client.send(new DeleteObjectCommand({ Bucket: "kept", Key: "gone" }));
    await fixture.testbed.close();

    const again = await startTestbed({
      store: { kind: "directory", path: directory as string },
      buckets: ["kept"],
    });
    const client = clientFor(again);
    try {
      const got = await client.send(new GetObjectCommand({ Bucket: "kept", Key: key }));
      expect(await got.Body?.transformToString()).toBe("persisted");
      expect(got).toMatchObject({ ContentType: "text/x-kept", ETag: md5Etag("persisted") });
      const page = await client.send(new ListObjectsV2Command({ Bucket: "kept" }));
      expect(page.Contents?.map((entry) => entry.Key)).toEqual([key]);
    } finally {
      client.destroy();
      await again.close();
      await fixture.stop();
    }
  });
});

describe("a testbed whose clock is off", () => {
  it("dates every response clockSkewMs from this machine's clock, errors included", async () => {
    const testbed = await startTestbed({ clockSkewMs: -3_600_000 });
    try {
      for (const path of ["/", "/missing-bucket/key"]) {
        const sentAtMs = Date.now();
        const response = await fetch(`${testbed.url}${path}`);
        await response.text();
        const dateMs = Date.parse(response.headers.get("date") ?? "");
        // An hour behind, give or take the header's whole second.
        expect(dateMs).toBeGreaterThan(sentAtMs - 3_600_000 - 1_000);
        expect(dateMs).toBeLessThanOrEqual(Date.now() - 3_600_000);
      }
    } finally {
      await testbed.close();
    }
    await expect(startTestbed({ clockSkewMs: Number.NaN })).rejects.toThrow(
      "testbed: clockSkewMs must be a number of milliseconds, not NaN",
    );
  });
});

/** An unsigned PUT written by `send`; answers the status and body (the request is then cut off). */
function rawPut(
  url: string,
  headers: Record<string, string>,
  send: (request: ClientRequest) => void,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: "PUT", headers }, (reply) => {
      let body = "";
      reply.setEncoding("utf8");
      reply.on("data", (chunk: string) => (body += chunk));
      reply.on("end", () => {
        resolve({ status: reply.statusCode ?? 0, body });
        request.destroy();
      });
    });
    request.on("error", reject);
    send(request);
  });
}
