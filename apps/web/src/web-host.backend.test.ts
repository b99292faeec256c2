import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { AppError, createApiClient, type RunEvent, type TailLabApi } from "@taillab/api";
import {
  createTailLabService,
  openResultsStore,
  passphraseCipher,
  storedRequestsCsv,
  startTestbedServer,
  type TailLabBackend,
} from "@taillab/backend";
import { createFetchInvoke } from "./browser/fetch-invoke.ts";
import { createRunEventSubscriber } from "./browser/run-event-subscriber.ts";
import { startWebHost, type WebHost } from "./web-host.ts";

/**
 * The web host in front of the real backend, driven the way the browser bridge drives it:
 * calls over HTTP, run events over the WebSocket.
 */

const SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
/** The backend's environment: TailLab's own passphrase, an unrelated secret, and lab keys. */
const ENV = {
  TAILLAB_SECRETS_PASSPHRASE: "passphrase-of-the-host",
  CI_DEPLOY_TOKEN: "token-of-the-host",
  LAB_ACCESS_KEY_ID: "AKIALABKEYID",
  LAB_SECRET_ACCESS_KEY: "lab-secret-key",
};

let folder: string;
let service: TailLabBackend;
let host: WebHost;
let api: TailLabApi;
/** Resolves when the next event socket opens (the host subscribes before the client hears so). */
let socketOpened: Promise<void>;
let markOpened: () => void;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "taillab-web-backend-"));
  const uiDir = join(folder, "ui");
  mkdirSync(uiDir);
  writeFileSync(join(uiDir, "index.html"), `<script type="module" src="./app.js"></script>`);
  service = await createTailLabService({
    host: "web",
    version: "0.0.0-test",
    dataDir: join(folder, "data"),
    resultsDir: join(folder, "results"),
    secretCipher: passphraseCipher("test passphrase"),
    env: ENV,
  });
  host = await startWebHost({ service, uiDir });
  const headers = { authorization: `Bearer ${host.token}` };
  api = createApiClient(
    createFetchInvoke(new URL("/api/", host.origin), headers),
    createRunEventSubscriber((handlers) => {
      const socket = new WebSocket(`ws://127.0.0.1:${host.port}/api/events`, { headers });
      socket.on("open", () => {
        handlers.onOpen();
        markOpened();
      });
      socket.on("message", (data) => handlers.onMessage(String(data)));
      socket.on("close", () => handlers.onClose());
      return socket;
    }),
  );
});

afterAll(async () => {
  await host?.close();
  await service?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe("web host with the real backend", () => {
  it("answers as the web host, with its folders", async () => {
    expect(await api.appInfo()).toMatchObject({
      host: "web",
      dataDir: join(folder, "data"),
      resultsDir: join(folder, "results"),
    });
  });

  it("stores a secret encrypted and never sends it back", async () => {
    const saved = await api.addEndpoint({
      name: "Lab MinIO",
      kind: "minio",
      url: "http://127.0.0.1:9000",
      credentials: { kind: "stored", accessKeyId: "minio" },
      secretAccessKey: SECRET,
    });
    expect(saved.hasSecret).toBe(true);
    expect(JSON.stringify(saved)).not.toContain(SECRET);
    expect(JSON.stringify(await api.listEndpoints())).not.toContain(SECRET);
    for (const file of readdirSync(join(folder, "data"))) {
      expect(readFileSync(join(folder, "data", file), "utf8"), file).not.toContain(SECRET);
    }
  });

  it("passes the backend's field errors to the client as an AppError", async () => {
    const failure = await api
      .addEndpoint({ name: "Bad", kind: "minio", url: "", credentials: { kind: "anonymous" } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect((failure as AppError).fields).toContainEqual({
      field: "url",
      message: expect.stringMatching(/is required/),
      code: "urlRequired",
      params: {},
    });
  });

  it("streams a run's events over the WebSocket", async () => {
    socketOpened = new Promise((resolve) => (markOpened = resolve));
    const events: RunEvent[] = [];
    const unsubscribe = api.onRunEvent((event) => events.push(event));
    await socketOpened;
    const { runId } = await api.startRun({
      experiment: {
        name: "web host test",
        endpointId: "testbed",
        spec: { clients: 1, samples: 8, objectSize: "1KiB" },
      },
    });
    await expect
      .poll(() => events.find((event) => event.type === "finished"), { timeout: 60_000 })
      .toMatchObject({ type: "finished", runId });
    expect(events[0]).toMatchObject({ type: "started", runId });
    unsubscribe();
  });
});

describe("web host with the real backend: environment credentials", () => {
  it("refuses an endpoint naming a variable that is not a credential, and reads nothing", async () => {
    const server = await startTestbedServer({ buckets: ["loadgen"] });
    try {
      const draft = {
        name: "Exfiltration",
        kind: "custom" as const,
        url: server.url,
        credentials: {
          kind: "env" as const,
          accessKeyIdVar: "TAILLAB_SECRETS_PASSPHRASE",
          secretAccessKeyVar: "CI_DEPLOY_TOKEN",
        },
      };
      for (const call of [api.testConnection({ draft }), api.addEndpoint(draft)]) {
        const failure = (await call.catch((error: unknown) => error)) as AppError;
        expect(failure).toBeInstanceOf(AppError);
        const prefix = failure.fields[0]?.field.startsWith("draft.") ? "draft." : "";
        expect(failure.fields).toMatchObject([
          {
            field: `${prefix}credentials.accessKeyIdVar`,
            message: expect.stringMatching(/TailLab's own variables, not a credential/),
            code: "variableReserved",
          },
          {
            field: `${prefix}credentials.secretAccessKeyVar`,
            message: expect.stringMatching(/not a credential variable: expected AWS_SECRET/),
            code: "variableNotCredential",
          },
        ]);
        expect(JSON.stringify(failure)).not.toMatch(/passphrase-of-the-host|token-of-the-host/);
      }
      expect(server.stats().received).toBe(0);
      expect(await api.listEndpoints()).not.toContainEqual(
        expect.objectContaining({ name: "Exfiltration" }),
      );
    } finally {
      await server.close();
    }
  });

  it("never echoes the access key id of environment credentials, accepted or refused", async () => {
    const credentials = { accessKeyId: ENV.LAB_ACCESS_KEY_ID, secretAccessKey: "lab-secret-key" };
    const accepting = await startTestbedServer({ credentials, buckets: ["loadgen"] });
    const refusing = await startTestbedServer({
      credentials: { accessKeyId: "SOMEONEELSE", secretAccessKey: "x" },
      buckets: ["loadgen"],
    });
    try {
      const draft = (url: string) => ({
        name: "Lab",
        kind: "custom" as const,
        url,
        credentials: {
          kind: "env" as const,
          accessKeyIdVar: "LAB_ACCESS_KEY_ID",
          secretAccessKeyVar: "LAB_SECRET_ACCESS_KEY",
        },
      });
      const ok = await api.testConnection({ draft: draft(accepting.url) });
      expect(ok.verdict, ok.message).toBe("ok");
      const refused = await api.testConnection({ draft: draft(refusing.url) });
      expect(refused.verdict).toBe("credentials");
      expect(refused.message).toMatch(/does not know the access key id \(InvalidAccessKeyId\)/);
      for (const report of [ok, refused]) {
        expect(JSON.stringify(report)).not.toContain(ENV.LAB_ACCESS_KEY_ID);
      }
    } finally {
      await accepting.close();
      await refusing.close();
    }
  });
});

describe("web host with the real backend: the per-request CSV", () => {
  it("downloads a run of several chunks byte for byte as the CLI writes it, chunk by chunk", async () => {
    const { runId } = await api.startRun({
      experiment: {
        name: "web csv",
        endpointId: "testbed",
        spec: { clients: 4, samples: 1500, objectSize: "1KiB" },
      },
    });
    await expect.poll(() => api.activeRun(), { timeout: 120_000 }).toBeNull();

    // What `taillab report --format csv --requests` writes, the same chunks put together.
    const store = await openResultsStore(join(folder, "results"));
    let expected = "";
    for await (const chunk of storedRequestsCsv(store, [runId], { bom: false })) expected += chunk;
    // More rows than two of the CSV's chunks (1 024 rows each).
    expect(expected.split("\n").length).toBeGreaterThan(2 * 1024);

    const pieces: Buffer[] = [];
    const answer = await new Promise<IncomingMessage>((resolve, reject) => {
      const request = httpRequest({
        host: "127.0.0.1",
        port: host.port,
        path: `/download/requests.csv?runId=${runId}`,
        headers: { authorization: `Bearer ${host.token}` },
      });
      request.on("response", resolve).on("error", reject).end();
    });
    answer.on("data", (piece: Buffer) => pieces.push(piece));
    await new Promise((resolve) => answer.on("end", resolve));
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["content-disposition"]).toBe(
      `attachment; filename="taillab-web-csv-${runId}-requests.csv"`,
    );
    // Sent as the log was read, never as one body of known length.
    expect(answer.headers["content-length"]).toBeUndefined();
    expect(pieces.length).toBeGreaterThan(1);
    expect(Buffer.concat(pieces).toString("utf8")).toBe(expected);
  });
});
