import { MAX_REQUEST_TIMEOUT_MS } from "@taillab/api";
import { startTestbed, type Testbed } from "@taillab/testbed";
import { createHash, createHmac } from "node:crypto";
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PiecewiseSha256 } from "./hash-in-pieces.ts";
import { createTransport } from "./object-transport.ts";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const DATA = Buffer.from("the payload of a PUT");

describe("the SDK's SHA-256 in pieces", () => {
  it.each([
    ["no secret: a hash", undefined, createHash("sha256").update(DATA).digest("hex")],
    ["a string secret: an HMAC", "key", createHmac("sha256", "key").update(DATA).digest("hex")],
    [
      "a byte secret: an HMAC",
      new Uint8Array([1, 2, 3]),
      createHmac("sha256", Buffer.from([1, 2, 3]))
        .update(DATA)
        .digest("hex"),
    ],
  ])("%s, as Node's", async (_name, secret, expected) => {
    const sha = new PiecewiseSha256(secret);
    sha.update(DATA.subarray(0, 5));
    sha.update(DATA.subarray(5));
    expect(hex(await sha.digest())).toBe(expected);
    sha.reset();
    sha.update(DATA);
    expect(hex(await sha.digest())).toBe(expected);
  });
});

describe("an SDK PUT of 2 GiB + 1 byte, signed over http", () => {
  let testbed: Testbed;
  const credentials = { accessKeyId: "AKIDPIECES", secretAccessKey: "pieces-secret" };
  beforeAll(async () => {
    testbed = await startTestbed({ credentials, buckets: ["big"] });
  });
  afterAll(async () => {
    await testbed?.close();
  });

  // SigV4 over http signs the payload's SHA-256: the SDK's own hash threw "data is too long".
  it("is accepted by a server that checks the payload's SHA-256, and reads back whole", async () => {
    const size = 2 ** 31 + 1;
    const transport = createTransport(
      "sdk",
      {
        url: testbed.url,
        region: "us-east-1",
        addressing: "path",
        credentials,
        bucket: "big",
        maxConnections: 1,
        // The server hashes 2 GiB twice: this is not a test of speed.
        requestTimeoutMs: MAX_REQUEST_TIMEOUT_MS,
      },
      () => Math.round(performance.now() * 1000),
    );
    try {
      const put = await transport.putObject("two-gib", Buffer.alloc(size));
      expect({ status: put.status, error: put.error }).toEqual({ status: 200, error: null });
      const get = await transport.getObject("two-gib");
      expect({ status: get.status, bytes: get.bytes }).toEqual({ status: 200, bytes: size });
    } finally {
      await transport.close();
    }
  });
});
