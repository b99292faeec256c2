import { GetObjectCommand, ListBucketsCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CREDENTIALS,
  clientFor,
  sdkError,
  startFixture,
  type Fixture,
} from "./test-support/testbed-fixture.ts";

interface Presigner {
  presign(
    request: {
      method: string;
      protocol: string;
      hostname: string;
      port: number;
      path: string;
      query: Record<string, string>;
      headers: Record<string, string>;
    },
    options: { expiresIn: number },
  ): Promise<{ path: string; query?: Record<string, string | string[] | null> }>;
}

describe("a testbed with credentials", () => {
  let fixture: Fixture;
  const bucket = "signed";

  beforeAll(async () => {
    fixture = await startFixture("memory", { credentials: CREDENTIALS, buckets: [bucket] });
  });
  afterAll(() => fixture.stop());

  it("serves requests signed with its credentials", async () => {
    const { client } = fixture;
    await client.send(
      new PutObjectCommand({ Bucket: bucket, Key: "a b/ü?&=+%", Body: "signed body" }),
    );
    const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: "a b/ü?&=+%" }));
    expect(await got.Body?.transformToString()).toBe("signed body");
  });

  it("refuses a wrong secret key with SignatureDoesNotMatch (403)", async () => {
    const client = clientFor(fixture.testbed, {
      credentials: { accessKeyId: CREDENTIALS.accessKeyId, secretAccessKey: "not-the-secret" },
    });
    expect(await sdkError(client.send(new ListBucketsCommand({})))).toMatchObject({
      name: "SignatureDoesNotMatch",
      status: 403,
    });
    client.destroy();
  });

  it("refuses an unknown access key with InvalidAccessKeyId (403)", async () => {
    const client = clientFor(fixture.testbed, {
      credentials: { accessKeyId: "SOMEONEELSE", secretAccessKey: CREDENTIALS.secretAccessKey },
    });
    expect(await sdkError(client.send(new ListBucketsCommand({})))).toMatchObject({
      name: "InvalidAccessKeyId",
      status: 403,
    });
    client.destroy();
  });

  it("refuses a signature scoped to another region", async () => {
    const client = clientFor(fixture.testbed, { region: "eu-west-1" });
    expect(await sdkError(client.send(new ListBucketsCommand({})))).toMatchObject({
      name: "AuthorizationHeaderMalformed",
      status: 400,
    });
    client.destroy();
  });

  it("refuses an unsigned request with AccessDenied (403)", async () => {
    const response = await fetch(`${fixture.testbed.url}/${bucket}/anything`);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("<Code>AccessDenied</Code>");
  });

  it("refuses a body that is not the one signed with XAmzContentSHA256Mismatch (400)", async () => {
    const client = clientFor(fixture.testbed);
    // After signing, swap the body for another of the same length, as a corrupting proxy would.
    client.middlewareStack.add(
      (next) => async (args) => {
        (args.request as { body: unknown }).body = "tampered";
        return next(args);
      },
      { step: "deserialize", name: "tamperBody" },
    );
    const put = client.send(
      new PutObjectCommand({ Bucket: bucket, Key: "tampered", Body: "original" }),
    );
    expect(await sdkError(put)).toMatchObject({ name: "XAmzContentSHA256Mismatch", status: 400 });
    client.destroy();
    const get = fixture.client.send(new GetObjectCommand({ Bucket: bucket, Key: "tampered" }));
    expect(await sdkError(get)).toMatchObject({ name: "NoSuchKey" });
  });

  it("accepts an UNSIGNED-PAYLOAD body", async () => {
    const client = clientFor(fixture.testbed);
    client.middlewareStack.add(
      (next) => async (args) => {
        (args.request as { headers: Record<string, string> }).headers["x-amz-content-sha256"] =
          "UNSIGNED-PAYLOAD";
        return next(args);
      },
      { step: "build", name: "unsignedPayload" },
    );
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: "unsigned", Body: "free" }));
    client.destroy();
    const got = await fixture.client.send(
      new GetObjectCommand({ Bucket: bucket, Key: "unsigned" }),
    );
    expect(await got.Body?.transformToString()).toBe("free");
  });

  it("serves presigned URLs, and refuses them once altered", async () => {
    const { client, testbed } = fixture;
    await client.send(
      new PutObjectCommand({ Bucket: bucket, Key: "shared file", Body: "presigned" }),
    );
    const signer = (await (
      client.config.signer as unknown as () => Promise<Presigner>
    )()) as Presigner;
    const presigned = await signer.presign(
      {
        method: "GET",
        protocol: "http:",
        hostname: "127.0.0.1",
        port: testbed.port,
        path: `/${bucket}/shared%20file`,
        query: {},
        // As @aws-sdk/s3-request-presigner does: S3 presigned URLs never sign the payload.
        headers: { host: `127.0.0.1:${testbed.port}`, "x-amz-content-sha256": "UNSIGNED-PAYLOAD" },
      },
      { expiresIn: 60 },
    );
    const query = new URLSearchParams(presigned.query as Record<string, string>).toString();
    expect(query).toContain("X-Amz-Signature=");
    const url = `${testbed.url}${presigned.path}?${query}`;
    const response = await fetch(url);
    expect(await response.text()).toBe("presigned");
    expect(response.status).toBe(200);
    const altered = await fetch(url.replace("shared%20file", "other%20file"));
    expect(altered.status).toBe(403);
    expect(await altered.text()).toContain("<Code>SignatureDoesNotMatch</Code>");
  });

  it("addresses the bucket through the Host header, signed", async () => {
    const client = clientFor(fixture.testbed, {
      forcePathStyle: false,
      endpoint: `http://localhost:${fixture.testbed.port}`,
    });
    const hosts: string[] = [];
    // <bucket>.localhost may not resolve here: connect to loopback, keep the signed Host header.
    client.middlewareStack.add(
      (next) => async (args) => {
        const request = args.request as { hostname: string; headers: Record<string, string> };
        hosts.push(request.headers.host ?? "");
        request.hostname = "127.0.0.1";
        return next(args);
      },
      { step: "deserialize", name: "connectToLoopback" },
    );
    await client.send(
      new PutObjectCommand({ Bucket: bucket, Key: "virtual/hosted", Body: "v-host" }),
    );
    const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: "virtual/hosted" }));
    expect(await got.Body?.transformToString()).toBe("v-host");
    expect(hosts).toEqual([
      `${bucket}.localhost:${fixture.testbed.port}`,
      `${bucket}.localhost:${fixture.testbed.port}`,
    ]);
    client.destroy();
    const pathStyle = await fixture.client.send(
      new GetObjectCommand({ Bucket: bucket, Key: "virtual/hosted" }),
    );
    expect(await pathStyle.Body?.transformToString()).toBe("v-host");
  });
});
