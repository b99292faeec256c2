import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { freePort } from "@taillab/test-support";
import type { TransportKind } from "@taillab/api";
import { expectCancelledBytes } from "./test-support/cancelled-bytes.ts";
import { expectOrderedTimeline } from "./test-support/ordered-timeline.ts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createControlPlane } from "./control-plane.ts";
import { EndpointError } from "./endpoint-error.ts";
import {
  createTransport,
  type ObjectTransport,
  type RequestOutcome,
  type TransportTarget,
} from "./object-transport.ts";

/**
 * Both transports against a scripted HTTP server: what goes on the wire (Host, path, signing
 * headers) and how odd answers (bodiless errors, HTML, resets, stalls) become outcomes.
 */

interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  /** Request body bytes the server read. */
  bodyBytes: number;
}

type Route = (request: IncomingMessage, response: ServerResponse) => void;

let server: Server;
let baseUrl: string;
let route: Route;
const seen: SeenRequest[] = [];

const clock = () => Math.round(performance.now() * 1000);
const credentials = { accessKeyId: "AKIDWIRETEST", secretAccessKey: "wire-secret" };
const KINDS: TransportKind[] = ["fast", "sdk"];
const open: ObjectTransport[] = [];

function transport(kind: TransportKind, overrides: Partial<TransportTarget> = {}) {
  const target: TransportTarget = {
    url: baseUrl,
    region: "us-east-1",
    addressing: "path",
    credentials,
    bucket: "wirebucket",
    maxConnections: 4,
    ...overrides,
  };
  const created = createTransport(kind, target, clock);
  open.push(created);
  return created;
}

const withoutTimes = ({ status, error, bytes }: RequestOutcome) => ({ status, error, bytes });

/**
 * `attempt` with a request timeout that starts short and doubles until `reached` holds. A test
 * of what a timeout cuts (a dripping body, a call made) needs the request to get that far
 * first, and on a loaded machine a short timeout may end it before: the machine's pace sets
 * the timeout, and every attempt, the last included, must end as the test says.
 */
async function withGrowingTimeout<T>(
  firstTimeoutMs: number,
  attempt: (requestTimeoutMs: number) => Promise<T>,
  reached: (result: T) => boolean,
): Promise<T> {
  for (let requestTimeoutMs = firstTimeoutMs; ; requestTimeoutMs *= 2) {
    const result = await attempt(requestTimeoutMs);
    if (reached(result)) return result;
  }
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const entry = {
      method: request.method ?? "",
      url: request.url ?? "",
      headers: request.headers,
      bodyBytes: 0,
    };
    seen.push(entry);
    request.on("data", (chunk: Buffer) => (entry.bodyBytes += chunk.length));
    request.on("end", () => route(request, response));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
  seen.length = 0;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const ok: Route = (_request, response) => response.writeHead(200, { "content-length": 0 }).end();

describe("fast transport on the wire", () => {
  it("path addressing: bucket in the path, key segments encoded, SigV4 with UNSIGNED-PAYLOAD", async () => {
    route = ok;
    const outcome = await transport("fast").putObject("dir one/a+b~é", new Uint8Array(3));
    expect(outcome).toMatchObject({ status: 200, error: null, bytes: 3 });
    const [request] = seen;
    expect(request?.method).toBe("PUT");
    expect(request?.url).toBe("/wirebucket/dir%20one/a%2Bb~%C3%A9");
    expect(request?.headers.host).toBe(new URL(baseUrl).host);
    expect(request?.headers["content-length"]).toBe("3");
    expect(request?.headers["x-amz-content-sha256"]).toBe("UNSIGNED-PAYLOAD");
    expect(request?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDWIRETEST\/\d{8}\/us-east-1\/s3\/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
  });

  it("virtual-host addressing: bucket in the Host header, not in the path", async () => {
    route = ok;
    await transport("fast", { addressing: "virtual-host" }).getObject("k/1");
    const [request] = seen;
    expect(request?.url).toBe("/k/1");
    expect(request?.headers.host).toBe(`wirebucket.${new URL(baseUrl).host}`);
    expect(request?.headers.authorization).toContain("SignedHeaders=host;");
  });

  it("anonymous targets send no Authorization header", async () => {
    route = ok;
    await transport("fast", { credentials: null }).deleteObject("k");
    expect(seen[0]?.headers.authorization).toBeUndefined();
    expect(seen[0]?.method).toBe("DELETE");
  });
});

describe("sdk transport on the wire", () => {
  it("sends the same path and no Expect or checksum headers on PUT", async () => {
    route = ok;
    const outcome = await transport("sdk").putObject("dir one/a+b~é", new Uint8Array(3));
    expect(outcome).toMatchObject({ status: 200, error: null, bytes: 3 });
    const [request] = seen;
    // The SDK tags its requests with ?x-id=PutObject; the object path is the fast path's.
    expect(request?.url.split("?")[0]).toBe("/wirebucket/dir%20one/a%2Bb~%C3%A9");
    expect(request?.headers.expect).toBeUndefined();
    expect(
      Object.keys(request?.headers ?? {}).filter((h) => h.startsWith("x-amz-checksum")),
    ).toEqual([]);
  });
});

describe.each(KINDS)("%s transport: a request's extra headers", (kind) => {
  it("are sent with GETs and PUTs, e.g. a tied request's tie id", async () => {
    route = ok;
    const tied = transport(kind);
    const headers = { "x-taillab-tie-id": "tie-7" };
    await tied.getObject("k", { headers });
    await tied.putObject("k", new Uint8Array(1), { headers });
    await tied.headObject("k");
    expect(seen.map((request) => request.headers["x-taillab-tie-id"])).toEqual([
      "tie-7",
      "tie-7",
      undefined,
    ]);
  });
});

describe.each(KINDS)("%s transport: failures become outcomes", (kind) => {
  const xml = (code: string) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>m</Message></Error>`;
  it.each([
    { status: 404, body: xml("NoSuchKey"), contentType: "application/xml", code: "NoSuchKey" },
    { status: 503, body: xml("SlowDown"), contentType: "application/xml", code: "SlowDown" },
    { status: 503, body: "", contentType: null, code: "HTTP503" },
    { status: 403, body: "", contentType: null, code: "Forbidden" },
    { status: 500, body: "<html>proxy error</html>", contentType: "text/html", code: "HTTP500" },
  ])(
    "GET and PUT answered $status $contentType → $code",
    async ({ status, body, contentType, code }) => {
      route = (_request, response) => {
        response.writeHead(status, {
          "content-length": Buffer.byteLength(body),
          ...(contentType ? { "content-type": contentType } : {}),
        });
        response.end(body);
      };
      const get = await transport(kind).getObject("k");
      expect(withoutTimes(get)).toEqual({ status, error: code, bytes: 0 });
      const put = await transport(kind).putObject("k", new Uint8Array(10));
      expect(withoutTimes(put)).toEqual({ status, error: code, bytes: 0 });
    },
  );

  it("connection refused → status 0, ECONNREFUSED", async () => {
    const port = await freePort();
    const outcome = await transport(kind, { url: `http://127.0.0.1:${port}` }).getObject("k");
    expect(withoutTimes(outcome)).toEqual({ status: 0, error: "ECONNREFUSED", bytes: 0 });
  });

  it("socket destroyed before an answer → status 0, UND_ERR_SOCKET", async () => {
    route = (request) => request.socket.destroy();
    const outcome = await transport(kind).getObject("k");
    expect(withoutTimes(outcome)).toEqual({ status: 0, error: "UND_ERR_SOCKET", bytes: 0 });
  });

  it("body cut short → status 200 with the transport error and the bytes that came", async () => {
    route = (request, response) => {
      response.writeHead(200, { "content-length": 4096 });
      response.write(Buffer.alloc(100), () => setTimeout(() => request.socket.destroy(), 20));
    };
    const outcome = await transport(kind).getObject("k");
    expect(withoutTimes(outcome)).toEqual({ status: 200, error: "UND_ERR_SOCKET", bytes: 100 });
  });

  // The server never answers: only the abort can end these requests (undici's own timeouts are
  // minutes away, and would end them with a timeout error).
  it("abort while waiting for headers → Aborted, at the abort", async () => {
    const controller = new AbortController();
    let abortedUs = Infinity;
    // Aborted once the server has the request, and never answered: a fixed delay could abort
    // before the request was written on a busy machine, and then nothing crossed the wire.
    route = () => {
      abortedUs = clock();
      controller.abort();
    };
    const outcome = await transport(kind).getObject("k", { signal: controller.signal });
    expect(withoutTimes(outcome)).toEqual({ status: 0, error: "Aborted", bytes: outcome.bytes });
    expectCancelledBytes(outcome.bytes, 0);
    expect(outcome.endUs).toBeGreaterThanOrEqual(abortedUs);
  });

  it("abort while reading the body → Aborted with the bytes received", async () => {
    route = (_request, response) => {
      response.writeHead(200, { "content-length": 1 << 20 });
      response.write(Buffer.alloc(1000)); // then stalls
    };
    const controller = new AbortController();
    let abortedUs = Infinity;
    setTimeout(() => {
      abortedUs = clock();
      controller.abort();
    }, 100);
    const outcome = await transport(kind).getObject("k", { signal: controller.signal });
    expect(withoutTimes(outcome)).toEqual({ status: 200, error: "Aborted", bytes: outcome.bytes });
    expectCancelledBytes(outcome.bytes, 1000);
    expect(outcome.endUs).toBeGreaterThanOrEqual(abortedUs);
  });

  it("a PUT cancelled after its body went out → Aborted with the bytes the server read", async () => {
    const controller = new AbortController();
    // The server read the whole body and holds the answer: the caller cancels then.
    route = () => controller.abort();
    const size = 256 * 1024;
    const outcome = await transport(kind).putObject("k", new Uint8Array(size), {
      signal: controller.signal,
    });
    expect(withoutTimes(outcome)).toEqual({ status: 0, error: "Aborted", bytes: outcome.bytes });
    expectCancelledBytes(outcome.bytes, size);
    expect(seen.map((request) => request.bodyBytes)).toEqual([size]);
  });

  it("a server that never answers → status 0, ClientTimeout, once the request timeout passed", async () => {
    route = () => {}; // never answers
    const outcome = await transport(kind, { requestTimeoutMs: 200 }).getObject("k");
    expect(withoutTimes(outcome)).toEqual({ status: 0, error: "ClientTimeout", bytes: 0 });
  });

  it("a server that drips its answer → ClientTimeout: the timeout bounds the whole attempt, not each gap", async () => {
    route = (_request, response) => {
      response.writeHead(200, { "content-length": 1 << 20 });
      const drip = setInterval(() => response.write("x"), 10);
      response.once("close", () => clearInterval(drip));
    };
    // Each gap is far shorter than the timeout: only a bound on the whole attempt ends it.
    const outcome = await withGrowingTimeout(
      300,
      async (requestTimeoutMs) => {
        const cut = await transport(kind, { requestTimeoutMs }).getObject("k");
        expect(cut.error).toBe("ClientTimeout");
        return cut;
      },
      (cut) => cut.bytes > 0,
    );
    expect(outcome).toMatchObject({ status: 200, error: "ClientTimeout" });
  });

  it("a PUT to a server that never answers → ClientTimeout, and a stop before it → Aborted", async () => {
    route = () => {};
    const put = await transport(kind, { requestTimeoutMs: 200 }).putObject("k", new Uint8Array(8));
    expect(put).toMatchObject({ status: 0, error: "ClientTimeout" });
    const stopped = await transport(kind, { requestTimeoutMs: 60_000 }).putObject(
      "k",
      new Uint8Array(8),
      { signal: AbortSignal.timeout(50) },
    );
    expect(stopped).toMatchObject({ status: 0, error: "Aborted" });
  });

  it("an already-aborted signal sends nothing", async () => {
    route = ok;
    const outcome = await transport(kind).putObject("k", new Uint8Array(1), {
      signal: AbortSignal.abort(),
    });
    expect(withoutTimes(outcome)).toEqual({ status: 0, error: "Aborted", bytes: 0 });
    expect(seen).toEqual([]);
  });

  it("an empty key is a programmer error: it throws", async () => {
    await expect(transport(kind).getObject("")).rejects.toThrow(/empty/);
  });

  it("a request waiting for a free connection is sent when it gets one: the wait is not TTFB", async () => {
    route = (_request, response) => {
      setTimeout(() => response.writeHead(200, { "content-length": 4 }).end("abcd"), 50);
    };
    const oneConnection = transport(kind, { maxConnections: 1 });
    const [first, second] = await Promise.all([
      oneConnection.getObject("a"),
      oneConnection.getObject("b"),
    ]);
    for (const outcome of [first, second]) {
      expect(outcome).toMatchObject({ status: 200, error: null, bytes: 4 });
      expectOrderedTimeline(outcome!);
      // The server answers each 50 ms after it got it.
      expect(outcome!.firstByteUs - outcome!.sentUs).toBeGreaterThanOrEqual(45_000);
    }
    // The second waited for the first's connection before it went out.
    expect(second!.sentUs).toBeGreaterThanOrEqual(first!.headersUs);
    expect(second!.sentUs - second!.readyUs).toBeGreaterThanOrEqual(45_000);
  });

  it("stamps each step: ready <= sent <= headers <= first body byte <= end", async () => {
    let bodyWrittenUs = 0;
    route = (_request, response) => {
      response.writeHead(200, { "content-length": 4 });
      response.flushHeaders();
      setTimeout(() => {
        bodyWrittenUs = clock();
        response.end("abcd");
      }, 20);
    };
    const outcome = await transport(kind).getObject("k", {
      expect: { bytes: 4, md5Hex: "e2fc714c4727ee9395f324cd2e7f331f" },
    });
    expect(outcome).toMatchObject({ status: 200, error: null, bytes: 4 });
    expectOrderedTimeline(outcome);
    // The headers went 20 ms before the body: the first byte is the body's, not the headers'.
    // The server shares this process's clock, so no bound on a busy machine's delays is needed.
    expect(outcome.firstByteUs).toBeGreaterThanOrEqual(bodyWrittenUs);
  });
});

describe("control plane against a scripted server", () => {
  const controlPlaneOf = (overrides: Partial<TransportTarget> = {}) =>
    createControlPlane({
      url: baseUrl,
      region: "us-east-1",
      addressing: "path",
      credentials,
      bucket: "wirebucket",
      maxConnections: 1,
      ...overrides,
    });

  it("a cleanup against a server that stopped answering ends after one timed-out call, every key reported left", async () => {
    route = () => {}; // never answers
    const keys = Array.from({ length: 2_500 }, (_, index) => `run/${index}`);
    const deleteCalls = () => seen.filter((request) => request.url.includes("?delete")).length;
    // One DeleteObjects of the three batches went out; the others were not worth the wait.
    await withGrowingTimeout(
      200,
      async (requestTimeoutMs) => {
        seen.length = 0;
        const controlPlane = controlPlaneOf({ requestTimeoutMs });
        try {
          const result = await controlPlane.deleteKeys(keys);
          expect(result).toMatchObject({ removed: 0, unanswered: true });
          expect(result.failures).toHaveLength(2_500);
          expect(new Set(result.failures.map((failure) => failure.code))).toEqual(
            new Set(["ClientTimeout"]),
          );
          expect(deleteCalls()).toBeLessThanOrEqual(1);
          return deleteCalls();
        } finally {
          server.closeAllConnections();
          await controlPlane.close();
        }
      },
      (calls) => calls === 1,
    );
  });

  it("a key refused inside a DeleteObjects answer is reported with its own code, the others removed", async () => {
    route = (_request, response) => {
      const body =
        '<?xml version="1.0" encoding="UTF-8"?><DeleteResult><Error><Key>run/1</Key><Code>AccessDenied</Code><Message>no</Message></Error></DeleteResult>';
      response.writeHead(200, { "content-type": "application/xml" }).end(body);
    };
    const controlPlane = controlPlaneOf();
    try {
      expect(await controlPlane.deleteKeys(["run/0", "run/1", "run/2"])).toEqual({
        removed: 2,
        failures: [{ name: "run/1", code: "AccessDenied" }],
        unanswered: false,
      });
    } finally {
      await controlPlane.close();
    }
  });

  it.each([
    ["InvalidAccessKeyId", 403],
    ["XAdminUserNotFound", 403],
  ])("a preflight answered %s is a credentials problem", async (code, status) => {
    route = (_request, response) => {
      const body = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>m</Message></Error>`;
      response.writeHead(status, { "content-type": "application/xml" }).end(body);
    };
    const controlPlane = controlPlaneOf();
    try {
      const error = await controlPlane.checkAccess().then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(EndpointError);
      expect(error).toMatchObject({
        field: "credentials",
        detail: { code: "keyRejected", params: { code } },
        unanswered: false,
        message: `endpoint ${baseUrl}: the access key was rejected (${code})`,
      });
    } finally {
      await controlPlane.close();
    }
  });
});
