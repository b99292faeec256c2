/**
 * An S3-speaking server whose answers wait a known time: the truth harness's server. It is a
 * process of its own (started by `startKnownLatencyServer`) and imports nothing but Node, so
 * TailLab's figures are checked against something that shares no code, no event loop and no
 * clock with it. It does just enough S3 for a run: objects (PUT, GET, HEAD, DELETE), DeleteObjects,
 * ListObjectsV2, an empty ListMultipartUploads, and bucket HEAD/PUT. Signatures are not checked.
 *
 * The wait applies to object requests, from the moment the request's body has arrived:
 * - fixed: every answer after `ms`;
 * - bimodal: `slowShare` of the answers (drawn from a seeded generator) after `slowMs`, the rest
 *   after `fastMs`;
 * - stalls: `probability` of the answers after `stallMs`, the rest after `baseMs`;
 * - freeze: after `baseMs`, except that nothing is answered during the first `freezeMs` of every
 *   `periodMs` (counted from the server's start): an answer due then goes out as the freeze ends.
 *
 * Started as `node known-latency-server.ts '<model JSON>'`; prints `{"port":N}` once listening.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";

type LatencyModel =
  | { kind: "fixed"; ms: number }
  | { kind: "bimodal"; fastMs: number; slowMs: number; slowShare: number; seed?: number }
  | { kind: "stalls"; baseMs: number; stallMs: number; probability: number; seed?: number }
  | { kind: "freeze"; baseMs: number; periodMs: number; freezeMs: number };

const model = JSON.parse(process.argv[2] ?? "{}") as LatencyModel;
const startedMs = performance.now();

/** mulberry32: a small seeded generator, so a model's slow answers repeat from run to run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = seededRandom("seed" in model && model.seed !== undefined ? model.seed : 1);

/** How long from now the answer to an object request waits. */
function waitMs(): number {
  switch (model.kind) {
    case "fixed":
      return model.ms;
    case "bimodal":
      return random() < model.slowShare ? model.slowMs : model.fastMs;
    case "stalls":
      return random() < model.probability ? model.stallMs : model.baseMs;
    case "freeze": {
      const dueMs = performance.now() - startedMs + model.baseMs;
      const intoPeriodMs = dueMs % model.periodMs;
      const heldMs = intoPeriodMs < model.freezeMs ? model.freezeMs - intoPeriodMs : 0;
      return model.baseMs + heldMs;
    }
  }
}

interface StoredObject {
  body: Buffer;
  etag: string;
}
const objects = new Map<string, StoredObject>();
let answered = 0;

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

function send(response: ServerResponse, status: number, body = "", type = "application/xml") {
  response.writeHead(status, {
    "content-type": type,
    "content-length": Buffer.byteLength(body),
    "x-amz-request-id": String(++answered),
  });
  response.end(body);
}

function sendError(response: ServerResponse, status: number, code: string) {
  send(response, status, `<?xml version="1.0"?><Error><Code>${code}</Code></Error>`);
}

function listObjects(response: ServerResponse, bucket: string, query: URLSearchParams) {
  const prefix = query.get("prefix") ?? "";
  const maxKeys = Number(query.get("max-keys") ?? 1000);
  const after = query.get("continuation-token") ?? query.get("start-after") ?? "";
  const keys = [...objects.keys()]
    .filter((name) => name.startsWith(`${bucket}/${prefix}`))
    .map((name) => name.slice(bucket.length + 1))
    .filter((key) => key > after)
    .sort();
  const page = keys.slice(0, maxKeys);
  const truncated = keys.length > page.length;
  const contents = page
    .map((key) => {
      const stored = objects.get(`${bucket}/${key}`);
      return `<Contents><Key>${escapeXml(key)}</Key><Size>${stored?.body.length ?? 0}</Size></Contents>`;
    })
    .join("");
  const next = truncated
    ? `<NextContinuationToken>${escapeXml(page.at(-1) ?? "")}</NextContinuationToken>`
    : "";
  send(
    response,
    200,
    `<?xml version="1.0"?><ListBucketResult><Name>${escapeXml(bucket)}</Name><Prefix>${escapeXml(prefix)}</Prefix>` +
      `<KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${next}${contents}</ListBucketResult>`,
  );
}

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function unescapeXml(text: string): string {
  return text.replace(/&#(\d+);|&(amp|lt|gt|quot|apos);/g, (all, code?: string, name?: string) =>
    code ? String.fromCharCode(Number(code)) : (NAMED_ENTITIES[name ?? ""] ?? all),
  );
}

function deleteObjects(response: ServerResponse, bucket: string, body: Buffer) {
  const keys = [...body.toString("utf8").matchAll(/<Key>([^<]*)<\/Key>/g)].map((match) =>
    unescapeXml(match[1] ?? ""),
  );
  for (const key of keys) objects.delete(`${bucket}/${key}`);
  const deleted = keys.map((key) => `<Deleted><Key>${escapeXml(key)}</Key></Deleted>`).join("");
  send(response, 200, `<?xml version="1.0"?><DeleteResult>${deleted}</DeleteResult>`);
}

function answerObject(
  request: IncomingMessage,
  response: ServerResponse,
  name: string,
  body: Buffer,
) {
  const stored = objects.get(name);
  switch (request.method) {
    case "PUT": {
      const etag = `"${createHash("md5").update(body).digest("hex")}"`;
      objects.set(name, { body, etag });
      response.writeHead(200, { etag, "content-length": 0 });
      response.end();
      return;
    }
    case "GET":
    case "HEAD":
      if (!stored) return sendError(response, 404, "NoSuchKey");
      response.writeHead(200, {
        etag: stored.etag,
        "content-type": "application/octet-stream",
        "content-length": stored.body.length,
      });
      response.end(request.method === "GET" ? stored.body : undefined);
      return;
    case "DELETE":
      objects.delete(name);
      response.writeHead(204);
      response.end();
      return;
    default:
      sendError(response, 405, "MethodNotAllowed");
  }
}

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const url = new URL(request.url ?? "/", "http://server");
    const [bucket = "", ...rest] = url.pathname.slice(1).split("/");
    const key = decodeURIComponent(rest.join("/"));
    const body = Buffer.concat(chunks);
    if (bucket === "") return send(response, 200, "<ListAllMyBucketsResult/>");
    if (key === "") {
      if (url.searchParams.has("delete")) return deleteObjects(response, bucket, body);
      if (url.searchParams.has("uploads")) {
        return send(
          response,
          200,
          "<ListMultipartUploadsResult><IsTruncated>false</IsTruncated></ListMultipartUploadsResult>",
        );
      }
      if (request.method === "GET") return listObjects(response, bucket, url.searchParams);
      return send(response, 200);
    }
    setTimeout(() => answerObject(request, response, `${bucket}/${key}`, body), waitMs());
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(
    `${JSON.stringify({ port: typeof address === "object" ? address?.port : 0 })}\n`,
  );
});
process.on("SIGTERM", () => process.exit(0));
