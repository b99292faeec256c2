import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { AppError, createApiClient, type RunEvent } from "@taillab/api";
import { createFetchInvoke } from "./browser/fetch-invoke.ts";
import { createRunEventSubscriber } from "./browser/run-event-subscriber.ts";
import { MAX_API_BODY_BYTES } from "./api-route.ts";
import { MAX_EVENT_SOCKETS } from "./run-event-socket.ts";
import { fakeService } from "./test-support/fake-service.ts";
import { rawRequest } from "./test-support/http-request.ts";
import { startWebHost, type WebHost } from "./web-host.ts";

const INDEX_HTML = `<!doctype html>
<html><head><script type="module" crossorigin src="./assets/app.js"></script></head>
<body><div id="root"></div></body></html>`;
const SECRET = "secret-outside-the-ui-folder";

const NOTICE: RunEvent = { type: "notice", runId: "run-1", message: "cleaning up" };

let folder: string;
let fake: ReturnType<typeof fakeService>;
let host: WebHost;

beforeEach(async () => {
  folder = mkdtempSync(join(tmpdir(), "taillab-web-"));
  const uiDir = join(folder, "ui");
  mkdirSync(join(uiDir, "assets"), { recursive: true });
  writeFileSync(join(uiDir, "index.html"), INDEX_HTML);
  writeFileSync(join(uiDir, "assets", "app.js"), "console.log('ui');");
  writeFileSync(join(uiDir, "assets", "app.js.map"), '{"sources":["../src/secret-sauce.ts"]}');
  writeFileSync(join(folder, "secret.txt"), SECRET);
  symlinkSync(join(folder, "secret.txt"), join(uiDir, "assets", "leak.js"));
  fake = fakeService();
  host = await startWebHost({ service: fake.service, uiDir });
});

afterEach(async () => {
  await host.close();
  rmSync(folder, { recursive: true, force: true });
});

const hostHeader = () => `127.0.0.1:${host.port}`;
const bearer = () => ({ authorization: `Bearer ${host.token}` });

function callApi(name: string, body: string, headers: Record<string, string> = {}) {
  return rawRequest(host.port, {
    method: "POST",
    path: `/api/${name}`,
    headers: { "content-type": "application/json", ...bearer(), ...headers },
    body,
  });
}

/** The status of a WebSocket handshake: 101 when it opened. */
function handshakeStatus(headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${host.port}/api/events`, { headers });
    socket.on("open", () => {
      socket.close();
      resolve(101);
    });
    socket.on("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0));
    socket.on("error", reject);
  });
}

describe("web host: where it listens", () => {
  it("listens on 127.0.0.1 only", async () => {
    expect(host.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${host.port}/\\?token=`));
    // Every 127/8 address reaches the loopback interface; only the bound one may answer.
    const refused = await new Promise<string>((resolve) => {
      const socket = connect({ host: "127.0.0.2", port: host.port });
      socket.on("connect", () => {
        socket.destroy();
        resolve("connected");
      });
      socket.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
    });
    expect(refused).toBe("ECONNREFUSED");
  });

  it("uses a fresh 32-byte token per launch", async () => {
    expect(Buffer.from(host.token, "base64url")).toHaveLength(32);
    const second = await startWebHost({ service: fake.service, uiDir: join(folder, "ui") });
    expect(second.token).not.toBe(host.token);
    await second.close();
  });
});

describe("web host: the launch token", () => {
  it("refuses the page, the API and the event socket without it", async () => {
    const page = await rawRequest(host.port, { path: "/", headers: { host: hostHeader() } });
    expect(page.status).toBe(401);
    expect(page.body).toMatch(/launch token/);
    expect(page.body).not.toContain("<html");
    const api = await callApi("appInfo", "", { authorization: "Bearer wrong" });
    expect(api.status).toBe(401);
    expect(fake.calls.appInfo).not.toHaveBeenCalled();
    expect(await handshakeStatus({})).toBe(401);
    expect(await handshakeStatus({ authorization: "Bearer wrong" })).toBe(401);
  });

  it("trades the token in the URL for an HttpOnly SameSite=Strict cookie", async () => {
    const opened = await rawRequest(host.port, { path: `/?token=${host.token}` });
    expect(opened.status).toBe(303);
    expect(opened.headers.location).toBe("/");
    const [cookie] = opened.headers["set-cookie"] ?? [];
    expect(cookie).toMatch(new RegExp(`^taillab-token-${host.port}-[\\w-]{16}=${host.token};`));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);

    const cookieHeader = cookie!.split(";")[0]!;
    const page = await rawRequest(host.port, { path: "/", headers: { cookie: cookieHeader } });
    expect(page.status).toBe(200);
    expect(page.body).toMatch(
      /<script src="\.\/taillab-bridge\.js"><\/script>\s*<script type="module"/,
    );
    expect(page.headers["cache-control"]).toBe("no-store");

    const bridge = await rawRequest(host.port, {
      path: "/taillab-bridge.js",
      headers: { cookie: cookieHeader },
    });
    expect(bridge.status).toBe(200);
    expect(bridge.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(bridge.body).toContain("taillab");
    expect(await handshakeStatus({ cookie: cookieHeader })).toBe(101);
  });

  it("refuses a wrong token in the URL", async () => {
    const opened = await rawRequest(host.port, { path: "/?token=not-the-token" });
    expect(opened.status).toBe(401);
    expect(opened.headers["set-cookie"]).toBeUndefined();
  });

  it("the token trade redirects to this host only, never to //another.host", async () => {
    const redirects: [string, string][] = [
      [`/.//evil.example/?token=${host.token}`, "/evil.example/"],
      [`/assets/..//evil.example/?token=${host.token}&x=1`, "/evil.example/?x=1"],
      [`//evil.example/?token=${host.token}`, "/"],
      [`/%2F%2Fevil.example/?token=${host.token}`, "/%2F%2Fevil.example/"],
      [`/runs?token=${host.token}`, "/runs"],
    ];
    for (const [path, location] of redirects) {
      const opened = await rawRequest(host.port, { path, headers: { host: hostHeader() } });
      expect(opened.status, path).toBe(303);
      expect(opened.headers.location, path).toBe(location);
    }
  });

  it("a cookie of the token's name for a longer path does not lock the UI out", async () => {
    // The browser sends the longer-path cookie first, then the real one.
    const name = (await sessionCookie()).split("=")[0]!;
    const cookie = `${name}=junk; other=1; ${name}=${host.token}`;
    const page = await rawRequest(host.port, { path: "/", headers: { cookie } });
    expect(page.status).toBe(200);
    const api = await rawRequest(host.port, {
      method: "POST",
      path: "/api/appInfo",
      headers: { cookie, "content-type": "application/json" },
    });
    expect(api.status).toBe(200);
    expect(await handshakeStatus({ cookie })).toBe(101);
    const junkOnly = await rawRequest(host.port, {
      path: "/",
      headers: { cookie: `${name}=junk; ${name}=more-junk` },
    });
    expect(junkOnly.status).toBe(401);
  });
});

/** The cookie the token trade sets, as `name=value`. */
async function sessionCookie(): Promise<string> {
  const opened = await rawRequest(host.port, { path: `/?token=${host.token}` });
  return opened.headers["set-cookie"]![0]!.split(";")[0]!;
}

/**
 * A browser's cookies for 127.0.0.1, as RFC 6265 keeps them: by name and path, whatever port set
 * them (a cookie of the same name and path replaces the one before), sent longest path first.
 */
function cookieJar() {
  const cookies = new Map<string, { path: string; pair: string }>();
  return {
    set(setCookie: string): void {
      const [pair, ...attributes] = setCookie.split(";").map((part) => part.trim());
      const path = attributes.find((attribute) => /^path=/i.test(attribute))?.slice(5) ?? "/";
      cookies.set(`${pair!.split("=")[0]}\n${path}`, { path, pair: pair! });
    },
    header(requestPath: string): string {
      return [...cookies.values()]
        .filter(({ path }) => requestPath.startsWith(path))
        .sort((a, b) => b.path.length - a.path.length)
        .map(({ pair }) => pair)
        .join("; ");
    },
  };
}

describe("web host: cookies planted by a page on another 127.0.0.1 port", () => {
  it("one named taillab-token-PORT for Path=/ cannot replace the session's", async () => {
    const jar = cookieJar();
    const opened = await rawRequest(host.port, { path: `/?token=${host.token}` });
    jar.set(opened.headers["set-cookie"]![0]!);
    jar.set(`taillab-token-${host.port}=junk; Path=/`);
    jar.set(`taillab-token-${host.port}=junk; Path=/api`);
    const page = await rawRequest(host.port, { path: "/", headers: { cookie: jar.header("/") } });
    expect(page.status).toBe(200);
    const api = await rawRequest(host.port, {
      method: "POST",
      path: "/api/appInfo",
      headers: { cookie: jar.header("/api/appInfo"), "content-type": "application/json" },
    });
    expect(api.status).toBe(200);
    expect(await handshakeStatus({ cookie: jar.header("/api/events") })).toBe(101);
  });

  it("forty 4 KB cookies do not make the UI's requests too large (431)", async () => {
    const junk = Array.from({ length: 40 }, (_, index) => `junk${index}=${"x".repeat(4090)}`);
    const cookie = [...junk, await sessionCookie()].join("; ");
    const page = await rawRequest(host.port, { path: "/", headers: { cookie } });
    expect(page.status).toBe(200);
    const api = await rawRequest(host.port, {
      method: "POST",
      path: "/api/appInfo",
      headers: { cookie, "content-type": "application/json" },
    });
    expect(api.status).toBe(200);
    expect(await handshakeStatus({ cookie })).toBe(101);
  });
});

describe("web host: Host and Origin", () => {
  it("refuses a foreign Host header, even with the token (DNS rebinding)", async () => {
    for (const host_ of ["evil.example", `evil.example:${host.port}`, "127.0.0.1:1"]) {
      const answer = await rawRequest(host.port, {
        path: "/",
        headers: { host: host_, ...bearer() },
      });
      expect(answer.status, host_).toBe(403);
    }
    expect(await handshakeStatus({ host: "evil.example", ...bearer() })).toBe(403);
    const local = await rawRequest(host.port, {
      path: "/",
      headers: { host: `localhost:${host.port}`, ...bearer() },
    });
    expect(local.status).toBe(200);
  });

  it("refuses calls and sockets from another origin (cross-site pages, CSRF)", async () => {
    const foreign = await callApi("appInfo", "", { origin: "http://evil.example" });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatch(/evil\.example/);
    expect(fake.calls.appInfo).not.toHaveBeenCalled();
    expect(await handshakeStatus({ origin: "http://evil.example", ...bearer() })).toBe(403);
    expect(await handshakeStatus({ origin: "null", ...bearer() })).toBe(403);

    const own = await callApi("appInfo", "", { origin: host.origin });
    expect(own.status).toBe(200);
    expect(await handshakeStatus({ origin: host.origin, ...bearer() })).toBe(101);
  });

  it("sends a strict CSP and nosniff on every answer", async () => {
    for (const answer of [
      await rawRequest(host.port, { path: "/", headers: bearer() }),
      await rawRequest(host.port, { path: "/" }),
      await callApi("appInfo", ""),
    ]) {
      const csp = String(answer.headers["content-security-policy"]);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain(
        `connect-src 'self' ws://127.0.0.1:${host.port} ws://localhost:${host.port}`,
      );
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(answer.headers["x-content-type-options"]).toBe("nosniff");
      const permissions = String(answer.headers["permissions-policy"]);
      for (const feature of ["camera", "microphone", "geolocation", "usb", "payment"]) {
        expect(permissions).toContain(`${feature}=()`);
      }
    }
  });
});

describe("web host: the API", () => {
  it("answers a call with its envelope", async () => {
    const answer = await callApi("appInfo", "");
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({
      ok: true,
      result: { version: "0.1.0-test", host: "web", resultsDir: "/results", dataDir: "/data" },
    });
  });

  it("answers bad JSON with 400 and a message naming the call", async () => {
    const answer = await callApi("addEndpoint", "{not json");
    expect(answer.status).toBe(400);
    expect(answer.body).toMatch(/^the body of \/api\/addEndpoint is not JSON/);
  });

  it("wants JSON and a body under the limit", async () => {
    const form = await callApi("appInfo", "", { "content-type": "text/plain" });
    expect(form.status).toBe(415);
    const huge = await callApi("addEndpoint", `"${"x".repeat(MAX_API_BODY_BYTES)}"`);
    expect(huge.status).toBe(413);
    // Without a declared length, the limit holds as the body streams in.
    const streamed = await callApi("addEndpoint", `"${"x".repeat(MAX_API_BODY_BYTES)}"`, {
      "transfer-encoding": "chunked",
    });
    expect(streamed.status).toBe(413);
    const get = await rawRequest(host.port, { path: "/api/appInfo", headers: bearer() });
    expect(get.status).toBe(405);
  });

  it("answers bad input with the fields at fault, without calling the service", async () => {
    const answer = await callApi("addEndpoint", JSON.stringify({ name: "", kind: "minio" }));
    expect(answer.status).toBe(200);
    const envelope = JSON.parse(answer.body);
    expect(envelope.ok).toBe(false);
    expect(envelope.error.fields).toEqual(
      expect.arrayContaining([
        { field: "name", message: "is required", code: "required", params: {} },
        { field: "credentials", message: "is required", code: "required", params: {} },
      ]),
    );
    expect(fake.calls.addEndpoint).not.toHaveBeenCalled();
  });

  it("answers an unknown call with 404 and an envelope naming it", async () => {
    const answer = await callApi("dropDatabase", "");
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toEqual({
      ok: false,
      error: { message: 'unknown call "dropDatabase"' },
    });
  });

  it("passes the service's own failure on as an envelope", async () => {
    fake.calls.removeRun!.mockRejectedValueOnce(new Error('run "r9" does not exist'));
    const answer = await callApi("removeRun", JSON.stringify({ runId: "r9" }));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({
      ok: false,
      error: { message: 'run "r9" does not exist' },
    });
  });
});

describe("web host: run events", () => {
  it("sends every run event over the WebSocket and forgets closed sockets", async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${host.port}/api/events`, { headers: bearer() });
    const received = new Promise<unknown>((resolve) =>
      socket.on("message", (data) => resolve(JSON.parse(String(data)))),
    );
    await new Promise((resolve) => socket.on("open", resolve));
    expect(fake.listenerCount()).toBe(1);
    fake.emit(NOTICE);
    expect(await received).toEqual(NOTICE);
    socket.close();
    await new Promise((resolve) => socket.on("close", resolve));
    await expect.poll(() => fake.listenerCount()).toBe(0);
  });

  it("refuses event sockets beyond the cap, clearly, and takes one again once one closes", async () => {
    const open: WebSocket[] = [];
    for (let count = 0; count < MAX_EVENT_SOCKETS; count += 1) {
      const socket = new WebSocket(`ws://127.0.0.1:${host.port}/api/events`, { headers: bearer() });
      await new Promise((resolve, reject) => {
        socket.on("open", resolve);
        socket.on("error", reject);
      });
      open.push(socket);
    }
    const refused = await new Promise<{ status: number; body: string }>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${host.port}/api/events`, { headers: bearer() });
      socket.on("open", () => {
        open.push(socket);
        resolve({ status: 101, body: "" });
      });
      socket.on("unexpected-response", (_request, response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      });
    });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatch(/too many event connections \(16 are open\)/);
    const closing = open.pop()!;
    closing.close();
    await new Promise((resolve) => closing.on("close", resolve));
    await expect.poll(() => fake.listenerCount()).toBe(MAX_EVENT_SOCKETS - 1);
    expect(await handshakeStatus(bearer())).toBe(101);
    for (const socket of open) socket.close();
  });

  it("refuses WebSockets on other paths", async () => {
    const status = await new Promise<number>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${host.port}/api/other`, { headers: bearer() });
      socket.on("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0));
    });
    expect(status).toBe(404);
  });
});

describe("web host: the browser bridge against it", () => {
  it("rebuilds failures as AppError with fields and delivers run events", async () => {
    const client = createApiClient(
      createFetchInvoke(new URL("/api/", host.origin), bearer()),
      createRunEventSubscriber((handlers) => {
        const socket = new WebSocket(`ws://127.0.0.1:${host.port}/api/events`, {
          headers: bearer(),
        });
        socket.on("open", () => handlers.onOpen());
        socket.on("message", (data) => handlers.onMessage(String(data)));
        socket.on("close", () => handlers.onClose());
        return socket;
      }),
    );
    expect((await client.appInfo()).host).toBe("web");
    const failure = await client.removeRun({ runId: "" }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect((failure as AppError).fields).toEqual([
      { field: "runId", message: expect.any(String), code: "required", params: {} },
    ]);

    const events: RunEvent[] = [];
    const unsubscribe = client.onRunEvent((event) => events.push(event));
    await expect.poll(() => fake.listenerCount()).toBe(1);
    fake.emit(NOTICE);
    await expect.poll(() => events).toEqual([NOTICE]);
    unsubscribe();
    await expect.poll(() => fake.listenerCount()).toBe(0);
  });
});

describe("web host: files", () => {
  it("serves the UI's files with their types", async () => {
    const script = await rawRequest(host.port, { path: "/assets/app.js", headers: bearer() });
    expect(script.status).toBe(200);
    expect(script.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(script.body).toBe("console.log('ui');");
  });

  it("never serves a file outside the UI folder", async () => {
    for (const path of [
      "/../secret.txt",
      "/assets/../../secret.txt",
      "/%2e%2e/secret.txt",
      "/..%2fsecret.txt",
      "/assets/..%2f..%2fsecret.txt",
      "/..%5csecret.txt",
      "/%2e%2e%2f%2e%2e%2fpackage.json",
      `/${"..%2f".repeat(12)}etc/passwd`,
      "/assets%00/app.js",
      "/%E0%A4%A",
    ]) {
      const answer = await rawRequest(host.port, { path, headers: bearer() });
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).not.toContain(SECRET);
    }
  });

  it("never serves a file through a link that leads out of the UI folder", async () => {
    const answer = await rawRequest(host.port, { path: "/assets/leak.js", headers: bearer() });
    expect(answer.status).toBe(404);
    expect(answer.body).not.toContain(SECRET);
  });

  it("never serves a source map", async () => {
    const answer = await rawRequest(host.port, { path: "/assets/app.js.map", headers: bearer() });
    expect(answer.status).toBe(404);
    expect(answer.body).not.toContain("secret-sauce");
  });

  it("fails to start without a built UI, naming the folder", async () => {
    await expect(startWebHost({ service: fake.service, uiDir: folder })).rejects.toThrow(
      `no index.html in ${folder}`,
    );
  });
});

describe("web host: the per-request CSV download", () => {
  const CHUNK = "x".repeat(64 * 1024);
  const CHUNKS = 1000;
  const path = "/download/requests.csv?runId=run-1";

  /** A CSV of 64 MiB whose chunks are counted as the host takes them. */
  function serveCountedCsv() {
    const taken = { count: 0, ended: false };
    async function* chunks() {
      try {
        for (; taken.count < CHUNKS; taken.count += 1) yield CHUNK;
      } finally {
        taken.ended = true;
      }
    }
    fake.service.requestsCsvFile = vi.fn(async () => ({
      fileName: "taillab-run-1-requests.csv",
      mimeType: "text/csv;charset=utf-8",
      chunks: chunks(),
    }));
    return taken;
  }

  it("writes the chunks as they are read, and stops reading when the download is cancelled", async () => {
    const taken = serveCountedCsv();
    const answer = await new Promise<IncomingMessage>((resolve, reject) => {
      const request = httpRequest({ host: "127.0.0.1", port: host.port, path, headers: bearer() });
      request.on("response", resolve).on("error", reject).end();
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["content-disposition"]).toBe(
      'attachment; filename="taillab-run-1-requests.csv"',
    );
    expect(answer.headers["content-type"]).toBe("text/csv;charset=utf-8");
    expect(fake.service.requestsCsvFile).toHaveBeenCalledWith("run-1", { bom: false });
    await new Promise((resolve) => answer.once("data", resolve));
    answer.destroy();
    // Written as the client read: the cancel reached the source long before its end.
    await expect.poll(() => taken.ended).toBe(true);
    expect(taken.count).toBeLessThan(CHUNKS);
  });

  it("refuses a request without the token, from another origin or started by another site", async () => {
    serveCountedCsv();
    const refusals = [
      { headers: {}, status: 401 },
      { headers: { ...bearer(), origin: "http://evil.example" }, status: 403 },
      { headers: { ...bearer(), "sec-fetch-site": "cross-site" }, status: 403 },
      { headers: { ...bearer(), host: "evil.example" }, status: 403 },
    ];
    for (const { headers, status } of refusals) {
      const answer = await rawRequest(host.port, { path, headers });
      expect(answer.status, JSON.stringify(headers)).toBe(status);
    }
    const posted = await rawRequest(host.port, { method: "POST", path, headers: bearer() });
    expect(posted.status).toBe(405);
    expect(fake.service.requestsCsvFile).not.toHaveBeenCalled();
  });

  it("says which run it cannot export, before any byte of a file", async () => {
    fake.service.requestsCsvFile = vi.fn(async () => {
      throw new Error("no run r-404 in the library");
    });
    const answer = await rawRequest(host.port, {
      path: "/download/requests.csv?runId=r-404",
      headers: bearer(),
    });
    expect(answer.status).toBe(404);
    expect(answer.headers["content-disposition"]).toBeUndefined();
    expect(answer.body).toBe("runId: no run r-404 in the library");
  });
});
