import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteBucketCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  UploadPartCommand,
  type CompletedPart,
  type S3Client,
} from "@aws-sdk/client-s3";
import { createHash, randomBytes } from "node:crypto";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CREDENTIALS,
  clientFor,
  sdkError,
  startFixture,
  type Fixture,
} from "./test-support/testbed-fixture.ts";

const KiB = 1024;
const MiB = 1024 * KiB;
const md5 = (body: Buffer) => createHash("md5").update(body).digest();
const md5Etag = (body: Buffer) => `"${md5(body).toString("hex")}"`;
/** S3's multipart ETag, computed here independently of the testbed's code. */
const s3MultipartEtag = (parts: Buffer[]) =>
  `"${createHash("md5")
    .update(Buffer.concat(parts.map(md5)))
    .digest("hex")}-${parts.length}"`;

async function createUpload(client: S3Client, bucket: string, key: string): Promise<string> {
  const { UploadId } = await client.send(
    new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }),
  );
  return UploadId as string;
}

/** Uploads the parts all at once (so they arrive in any order); returns them as listed. */
async function uploadParts(
  client: S3Client,
  target: { Bucket: string; Key: string; UploadId: string },
  parts: readonly Buffer[],
): Promise<CompletedPart[]> {
  return Promise.all(
    parts.map(async (body, i) => {
      const { ETag } = await client.send(
        new UploadPartCommand({ ...target, PartNumber: i + 1, Body: body }),
      );
      return { PartNumber: i + 1, ETag };
    }),
  );
}

async function readBack(client: S3Client, bucket: string, key: string): Promise<Buffer> {
  const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from((await got.Body?.transformToByteArray()) ?? []);
}

describe.each(["memory", "directory"] as const)(
  "multipart uploads and copies with the %s store, signed",
  (storeKind) => {
    let fixture: Fixture;
    const bucket = "multipart";
    const other = "copies";

    beforeAll(async () => {
      fixture = await startFixture(storeKind, {
        credentials: CREDENTIALS,
        buckets: [bucket, other],
        minPartSizeBytes: 5 * KiB,
      });
    });
    afterAll(() => fixture.stop());

    describe("multipart uploads", () => {
      it("assembles the parts into the object, with S3's multipart ETag", async () => {
        const { client, testbed } = fixture;
        const key = "parts/ü object";
        const parts = [randomBytes(5 * KiB), randomBytes(5 * KiB), randomBytes(6 * KiB)];
        parts.push(randomBytes(KiB));
        const { UploadId } = await client.send(
          new CreateMultipartUploadCommand({
            Bucket: bucket,
            Key: key,
            ContentType: "application/x-parts",
          }),
        );
        const target = { Bucket: bucket, Key: key, UploadId: UploadId as string };
        const completed = await uploadParts(client, target, parts);
        expect(completed.map((part) => part.ETag)).toEqual(parts.map(md5Etag));

        const listed = await client.send(new ListPartsCommand(target));
        expect(
          listed.Parts?.map(({ PartNumber, Size, ETag }) => ({ PartNumber, Size, ETag })),
        ).toEqual(
          parts.map((body, i) => ({ PartNumber: i + 1, Size: body.length, ETag: md5Etag(body) })),
        );
        expect(listed.Parts?.[0]?.LastModified).toBeInstanceOf(Date);

        const result = await client.send(
          new CompleteMultipartUploadCommand({ ...target, MultipartUpload: { Parts: completed } }),
        );
        expect(result.ETag).toBe(s3MultipartEtag(parts));
        expect(result.ETag).toMatch(/^"[0-9a-f]{32}-4"$/);
        expect(result).toMatchObject({ Bucket: bucket, Key: key });

        const body = await readBack(client, bucket, key);
        expect(md5(body)).toEqual(md5(Buffer.concat(parts)));
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        expect(head).toMatchObject({
          ETag: s3MultipartEtag(parts),
          ContentType: "application/x-parts",
          ContentLength: 17 * KiB,
        });
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: key }));
        expect(page.Contents?.map(({ Key, Size, ETag }) => ({ Key, Size, ETag }))).toEqual([
          { Key: key, Size: 17 * KiB, ETag: s3MultipartEtag(parts) },
        ]);
        expect(await sdkError(client.send(new ListPartsCommand(target)))).toMatchObject({
          name: "NoSuchUpload",
          status: 404,
        });
        expect(testbed.stats().byOperation).toMatchObject({
          CreateMultipartUpload: expect.any(Number),
          UploadPart: expect.any(Number),
          ListParts: expect.any(Number),
          CompleteMultipartUpload: expect.any(Number),
        });
      });

      it("takes a part uploaded again, and leaves out the parts not listed", async () => {
        const { client } = fixture;
        const target = { Bucket: bucket, Key: "replaced", UploadId: "" };
        target.UploadId = await createUpload(client, bucket, target.Key);
        const parts = [randomBytes(5 * KiB), randomBytes(5 * KiB), randomBytes(5 * KiB)];
        const first = await uploadParts(client, target, parts);
        const again = randomBytes(2 * KiB);
        const { ETag } = await client.send(
          new UploadPartCommand({ ...target, PartNumber: 2, Body: again }),
        );
        const stale = client.send(
          new CompleteMultipartUploadCommand({ ...target, MultipartUpload: { Parts: first } }),
        );
        expect(await sdkError(stale)).toMatchObject({ name: "InvalidPart", status: 400 });
        await client.send(
          new CompleteMultipartUploadCommand({
            ...target,
            MultipartUpload: { Parts: [first[0] as CompletedPart, { PartNumber: 2, ETag }] },
          }),
        );
        const expected = [parts[0] as Buffer, again];
        expect((await readBack(client, bucket, "replaced")).equals(Buffer.concat(expected))).toBe(
          true,
        );
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: "replaced" }));
        expect(head.ETag).toBe(s3MultipartEtag(expected));
      });

      it("refuses a small part before the last with EntityTooSmall, and keeps the upload open", async () => {
        const { client } = fixture;
        const target = { Bucket: bucket, Key: "too-small", UploadId: "" };
        target.UploadId = await createUpload(client, bucket, target.Key);
        const parts = await uploadParts(client, target, [
          randomBytes(5 * KiB),
          randomBytes(5 * KiB - 1),
          randomBytes(5 * KiB),
        ]);
        const complete = client.send(
          new CompleteMultipartUploadCommand({ ...target, MultipartUpload: { Parts: parts } }),
        );
        expect(await sdkError(complete)).toMatchObject({ name: "EntityTooSmall", status: 400 });
        const listed = await client.send(new ListPartsCommand(target));
        expect(listed.Parts).toHaveLength(3);
        // Fixed by leaving the small part out: the last part may be any size.
        await client.send(
          new CompleteMultipartUploadCommand({
            ...target,
            MultipartUpload: { Parts: parts.slice(0, 2) },
          }),
        );
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: "too-small" }));
        expect(head.ContentLength).toBe(10 * KiB - 1);
      });

      it("refuses a wrong ETag with InvalidPart and parts out of order with InvalidPartOrder", async () => {
        const { client } = fixture;
        const target = { Bucket: bucket, Key: "refused", UploadId: "" };
        target.UploadId = await createUpload(client, bucket, target.Key);
        const [one, two] = (await uploadParts(client, target, [
          randomBytes(5 * KiB),
          randomBytes(KiB),
        ])) as [CompletedPart, CompletedPart];
        for (const [parts, name] of [
          [[one, { ...two, ETag: md5Etag(Buffer.from("other")) }], "InvalidPart"],
          [[one, { PartNumber: 3, ETag: two.ETag }], "InvalidPart"],
          [[two, one], "InvalidPartOrder"],
        ] as const) {
          const complete = client.send(
            new CompleteMultipartUploadCommand({
              ...target,
              MultipartUpload: { Parts: [...parts] },
            }),
          );
          expect(await sdkError(complete)).toMatchObject({ name, status: 400 });
        }
        await client.send(new AbortMultipartUploadCommand(target));
      });

      it("aborts an upload: its parts are gone and it is NoSuchUpload from then on", async () => {
        const { client, directory } = fixture;
        const target = { Bucket: bucket, Key: "aborted", UploadId: "" };
        target.UploadId = await createUpload(client, bucket, target.Key);
        const parts = await uploadParts(client, target, [randomBytes(5 * KiB), randomBytes(KiB)]);
        const partFolder =
          directory === undefined
            ? undefined
            : join(directory, bucket, ".uploads", target.UploadId);
        if (partFolder !== undefined) expect(await readdir(partFolder)).toHaveLength(2);

        const aborted = await client.send(new AbortMultipartUploadCommand(target));
        expect(aborted.$metadata.httpStatusCode).toBe(204);
        if (partFolder !== undefined) {
          await expect(readdir(partFolder)).rejects.toMatchObject({ code: "ENOENT" });
        }
        for (const command of [
          new ListPartsCommand(target),
          new UploadPartCommand({ ...target, PartNumber: 1, Body: "x" }),
          new CompleteMultipartUploadCommand({ ...target, MultipartUpload: { Parts: parts } }),
          new AbortMultipartUploadCommand(target),
        ]) {
          // The commands differ in type; each is sent as the SDK would.
          expect(await sdkError(client.send(command as ListPartsCommand))).toMatchObject({
            name: "NoSuchUpload",
            status: 404,
          });
        }
        expect(
          await sdkError(client.send(new HeadObjectCommand({ Bucket: bucket, Key: "aborted" }))),
        ).toMatchObject({ status: 404 });
      });

      it("answers NoSuchUpload for an id it never gave, or gave for another key", async () => {
        const { client } = fixture;
        const uploadId = await createUpload(client, bucket, "mine");
        for (const [key, id] of [
          ["mine", "0000000000000000"],
          ["not-mine", uploadId],
        ]) {
          const put = client.send(
            new UploadPartCommand({
              Bucket: bucket,
              Key: key,
              UploadId: id,
              PartNumber: 1,
              Body: "x",
            }),
          );
          expect(await sdkError(put)).toMatchObject({ name: "NoSuchUpload", status: 404 });
        }
        await client.send(
          new AbortMultipartUploadCommand({ Bucket: bucket, Key: "mine", UploadId: uploadId }),
        );
      });

      it.each([0, 10_001])("refuses part number %i with InvalidArgument", async (partNumber) => {
        const { client } = fixture;
        const target = { Bucket: bucket, Key: "numbered", UploadId: "" };
        target.UploadId = await createUpload(client, bucket, target.Key);
        const put = client.send(
          new UploadPartCommand({ ...target, PartNumber: partNumber, Body: "x" }),
        );
        expect(await sdkError(put)).toMatchObject({ name: "InvalidArgument", status: 400 });
        await client.send(new AbortMultipartUploadCommand(target));
      });

      it("lists open uploads by key, under a prefix and in pages", async () => {
        const { client } = fixture;
        const listed = "open-uploads";
        await client.send(new CreateBucketCommand({ Bucket: listed }));
        const ids = new Map<string, string>();
        for (const key of ["logs/b", "logs/a", "other", "logs/a"]) {
          ids.set(`${key}#${ids.size}`, await createUpload(client, listed, key));
        }
        const done = await createUpload(client, listed, "done");
        await client.send(
          new AbortMultipartUploadCommand({ Bucket: listed, Key: "done", UploadId: done }),
        );

        const all = await client.send(new ListMultipartUploadsCommand({ Bucket: listed }));
        expect(all.Uploads?.map((upload) => [upload.Key, upload.UploadId])).toEqual([
          ["logs/a", ids.get("logs/a#1")],
          ["logs/a", ids.get("logs/a#3")],
          ["logs/b", ids.get("logs/b#0")],
          ["other", ids.get("other#2")],
        ]);
        expect(all.Uploads?.[0]?.Initiated).toBeInstanceOf(Date);
        expect(all.IsTruncated).toBe(false);

        const seen: string[] = [];
        let markers: { KeyMarker?: string; UploadIdMarker?: string } = {};
        for (;;) {
          const page = await client.send(
            new ListMultipartUploadsCommand({
              Bucket: listed,
              Prefix: "logs/",
              MaxUploads: 2,
              ...markers,
            }),
          );
          seen.push(...(page.Uploads?.map((upload) => upload.UploadId ?? "") ?? []));
          if (!page.IsTruncated) break;
          markers = { KeyMarker: page.NextKeyMarker, UploadIdMarker: page.NextUploadIdMarker };
        }
        expect(seen).toEqual([ids.get("logs/a#1"), ids.get("logs/a#3"), ids.get("logs/b#0")]);

        // Deleting the bucket ends its uploads, as in S3.
        await client.send(new DeleteBucketCommand({ Bucket: listed }));
        await client.send(new CreateBucketCommand({ Bucket: listed }));
        const after = await client.send(new ListMultipartUploadsCommand({ Bucket: listed }));
        expect(after.Uploads ?? []).toEqual([]);
        await client.send(new DeleteBucketCommand({ Bucket: listed }));
      });

      it("answers NoSuchBucket for an upload into a missing bucket", async () => {
        const create = fixture.client.send(
          new CreateMultipartUploadCommand({ Bucket: "no-such-bucket", Key: "k" }),
        );
        expect(await sdkError(create)).toMatchObject({ name: "NoSuchBucket", status: 404 });
      });

      it("checks the CRC32 an SDK with flexible checksums sends with each part", async () => {
        const checksummed = clientFor(fixture.testbed, {
          requestChecksumCalculation: "WHEN_SUPPORTED",
        });
        const sent: string[] = [];
        checksummed.middlewareStack.add(
          (next) => async (args) => {
            const { headers } = args.request as { headers: Record<string, string> };
            sent.push(...Object.keys(headers).filter((name) => name.startsWith("x-amz-checksum-")));
            return next(args);
          },
          { step: "finalizeRequest", name: "recordChecksums" },
        );
        const target = { Bucket: bucket, Key: "checksummed", UploadId: "" };
        target.UploadId = await createUpload(checksummed, bucket, target.Key);
        const parts = [randomBytes(5 * KiB), randomBytes(KiB)];
        const completed = await uploadParts(checksummed, target, parts);
        await checksummed.send(
          new CompleteMultipartUploadCommand({ ...target, MultipartUpload: { Parts: completed } }),
        );
        expect(sent).toContain("x-amz-checksum-crc32");
        checksummed.destroy();
        expect(
          (await readBack(fixture.client, bucket, "checksummed")).equals(Buffer.concat(parts)),
        ).toBe(true);
      });

      it("checks the signature of a part, as of any request", async () => {
        const { testbed } = fixture;
        const target = { Bucket: bucket, Key: "forged", UploadId: "" };
        target.UploadId = await createUpload(fixture.client, bucket, target.Key);
        const forger = clientFor(testbed, {
          credentials: { accessKeyId: CREDENTIALS.accessKeyId, secretAccessKey: "wrong" },
        });
        const put = forger.send(new UploadPartCommand({ ...target, PartNumber: 1, Body: "x" }));
        expect(await sdkError(put)).toMatchObject({ name: "SignatureDoesNotMatch", status: 403 });
        forger.destroy();
        await fixture.client.send(new AbortMultipartUploadCommand(target));
      });
    });

    describe("CopyObject", () => {
      it("copies an object within its bucket, keeping its type", async () => {
        const { client } = fixture;
        const body = randomBytes(3 * KiB);
        await client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: "original",
            Body: body,
            ContentType: "x/orig",
          }),
        );
        const before = Date.now() - 1_000;
        const copied = await client.send(
          new CopyObjectCommand({ Bucket: bucket, Key: "copy", CopySource: `${bucket}/original` }),
        );
        expect(copied.CopyObjectResult?.ETag).toBe(md5Etag(body));
        expect(copied.CopyObjectResult?.LastModified?.getTime()).toBeGreaterThanOrEqual(before);
        expect((await readBack(client, bucket, "copy")).equals(body)).toBe(true);
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: "copy" }));
        expect(head).toMatchObject({ ContentType: "x/orig", ETag: md5Etag(body) });
      });

      it("copies across buckets, from an encoded source key with a leading slash", async () => {
        const { client } = fixture;
        const key = "dir/a b+c?ü";
        await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: "across" }));
        await client.send(
          new CopyObjectCommand({
            Bucket: other,
            Key: key,
            CopySource: `/${bucket}/${key.split("/").map(encodeURIComponent).join("/")}`,
          }),
        );
        expect((await readBack(client, other, key)).toString()).toBe("across");
      });

      it("replaces the type with REPLACE, also onto itself, which COPY refuses", async () => {
        const { client } = fixture;
        await client.send(
          new PutObjectCommand({ Bucket: bucket, Key: "retyped", Body: "x", ContentType: "x/old" }),
        );
        const onto = { Bucket: bucket, Key: "retyped", CopySource: `${bucket}/retyped` };
        expect(await sdkError(client.send(new CopyObjectCommand(onto)))).toMatchObject({
          name: "InvalidRequest",
          status: 400,
        });
        await client.send(
          new CopyObjectCommand({ ...onto, MetadataDirective: "REPLACE", ContentType: "x/new" }),
        );
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: "retyped" }));
        expect(head.ContentType).toBe("x/new");
      });

      it("gives a copy of a multipart object the MD5 of its bytes as ETag", async () => {
        const { client } = fixture;
        const target = { Bucket: bucket, Key: "multipart-source", UploadId: "" };
        target.UploadId = await createUpload(client, bucket, target.Key);
        const parts = [randomBytes(5 * KiB), randomBytes(KiB)];
        const completed = await uploadParts(client, target, parts);
        await client.send(
          new CompleteMultipartUploadCommand({ ...target, MultipartUpload: { Parts: completed } }),
        );
        const copied = await client.send(
          new CopyObjectCommand({
            Bucket: other,
            Key: "from-multipart",
            CopySource: `${bucket}/multipart-source`,
          }),
        );
        expect(copied.CopyObjectResult?.ETag).toBe(md5Etag(Buffer.concat(parts)));
      });

      it.each([
        ["a missing key", `${"multipart"}/no-such-key`, "NoSuchKey", 404],
        ["a missing bucket", "no-such-bucket/key", "NoSuchBucket", 404],
        ["a source without a key", "multipart", "InvalidArgument", 400],
        ["a version", "multipart/original?versionId=1", "NotImplemented", 501],
      ])("answers a copy from %s with %s", async (_name, source, name, status) => {
        const copy = fixture.client.send(
          new CopyObjectCommand({ Bucket: bucket, Key: "never", CopySource: source }),
        );
        expect(await sdkError(copy)).toMatchObject({ name, status });
      });
    });
  },
);

describe("multipart uploads with S3's 5 MiB minimum part size", () => {
  let fixture: Fixture;
  const bucket = "large";

  beforeAll(async () => {
    fixture = await startFixture("directory", { buckets: [bucket] });
  });
  afterAll(() => fixture.stop());

  it("assembles 3 × 5 MiB + 1 KiB into the same bytes, with ETag …-4", async () => {
    const { client } = fixture;
    const parts = [randomBytes(5 * MiB), randomBytes(5 * MiB), randomBytes(5 * MiB)];
    parts.push(randomBytes(KiB));
    const target = { Bucket: bucket, Key: "large", UploadId: "" };
    target.UploadId = await createUpload(client, bucket, target.Key);
    const completed = await uploadParts(client, target, parts);
    const result = await client.send(
      new CompleteMultipartUploadCommand({ ...target, MultipartUpload: { Parts: completed } }),
    );
    expect(result.ETag).toBe(s3MultipartEtag(parts));
    expect(result.ETag).toMatch(/-4"$/);
    const body = await readBack(client, bucket, "large");
    expect(body.length).toBe(15 * MiB + KiB);
    expect(md5(body)).toEqual(md5(Buffer.concat(parts)));
  });

  it("refuses a 1 MiB part before the last with EntityTooSmall", async () => {
    const { client } = fixture;
    const target = { Bucket: bucket, Key: "small-middle", UploadId: "" };
    target.UploadId = await createUpload(client, bucket, target.Key);
    const completed = await uploadParts(client, target, [
      randomBytes(5 * MiB),
      randomBytes(MiB),
      randomBytes(KiB),
    ]);
    const complete = client.send(
      new CompleteMultipartUploadCommand({ ...target, MultipartUpload: { Parts: completed } }),
    );
    expect(await sdkError(complete)).toMatchObject({ name: "EntityTooSmall", status: 400 });
    await client.send(new AbortMultipartUploadCommand(target));
  });
});
