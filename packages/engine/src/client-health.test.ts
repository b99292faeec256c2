import { HedgeOptionsSchema, type PhaseSummary } from "@taillab/api";
import { holdProcessOffCpu, startKnownLatencyServer } from "@taillab/test-support";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPoint, type PointRunOptions } from "./point-run.ts";
import { epochNowMs } from "./run-clock.ts";

/**
 * The client-health verdict and the live lab's bounded backlog, against a scripted server whose
 * answers wait `answerAfterMs`. Runs are compared within a test, never with a time bound.
 */

let server: Server;
let url = "";
let answerAfterMs = 0;

function answer(request: IncomingMessage, response: ServerResponse): void {
  request.resume();
  request.on("end", () => {
    const body = request.method === "GET" ? "x".repeat(64) : "";
    setTimeout(
      () => response.writeHead(200, { "content-length": body.length }).end(body),
      answerAfterMs,
    );
  });
}

beforeAll(async () => {
  server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function options(overrides: Partial<PointRunOptions>, serverUrl = url): PointRunOptions {
  return {
    targets: [
      { url: serverUrl, region: "us-east-1", addressing: "path", credentials: null, bucket: "b" },
    ],
    transportKind: "fast",
    params: { clients: 4, samples: 60, objectSizeBytes: 64 },
    workload: null,
    openLoop: null,
    mode: "normal",
    hedge: HedgeOptionsSchema.parse({}),
    replicaChoice: "round-robin",
    phases: ["write"],
    keyPrefix: `t/${Math.random().toString(36).slice(2)}/`,
    firstKey: 0,
    firstPhaseIndex: 0,
    workers: 1,
    verify: false,
    runStartEpochMs: epochNowMs(),
    ...overrides,
  };
}

async function phaseOf(
  serverMs: number,
  overrides: Partial<PointRunOptions>,
  serverUrl = url,
): Promise<PhaseSummary> {
  answerAfterMs = serverMs;
  const result = await runPoint(options(overrides, serverUrl));
  const [phase] = result.phases;
  if (!phase) throw new Error("no phase was measured");
  return phase.summary;
}

describe("whether the client kept up", () => {
  it("is the bottleneck when its worker's event loop is held, and kept up against a slow server", async () => {
    // A slow server and few clients: the worker waits, and has nothing else to do.
    const quiet = await phaseOf(600, { params: { clients: 2, samples: 6, objectSizeBytes: 64 } });
    // This process, its workers with it, held off the CPU 30 ms in every 50 ms while a server
    // answering in 5 ms is asked: answers that arrive meanwhile wait for the loop. The server
    // runs in a process of its own, so the freezes hold only the client.
    const apart = await startKnownLatencyServer({ kind: "fixed", ms: 5 });
    const freezer = await holdProcessOffCpu(process.pid, { holdMs: 30, periodMs: 50 });
    const held = await phaseOf(
      5,
      // 800 requests: their slowest 1 % (8) outnumber the 4 clients' first requests, whose
      // connects and cold code, not a freeze, can make them the slowest.
      { params: { clients: 4, samples: 800, objectSizeBytes: 64 } },
      apart.url,
    ).finally(async () => {
      await freezer.stop();
      await apart.stop();
    });

    expect(quiet.client?.verdict).toEqual({ keptUp: true, reasons: [] });
    expect(held.client?.verdict.keptUp).toBe(false);
    expect(held.client?.verdict.reasons).toContain("event-loop-delay");
    expect(held.client?.figures.stallShare).toBeGreaterThan(quiet.client?.figures.stallShare ?? 1);
    // Part of the held run's slowest requests' "server" time was the client's stall.
    expect(held.client?.tailStallMs?.p99).toBeGreaterThan(0);
    expect(held.client?.tailStallMs?.p99).toBeLessThanOrEqual(held.tail?.p99.serverMs ?? 0);
    // Every second of the held run is judged, and some say so.
    expect(held.client?.seconds.some((second) => !second.verdict.keptUp)).toBe(true);
    expect(quiet.client?.arrivals).toBeNull();
  });
});

describe("an open loop's backlog", () => {
  it("a live lab sheds arrivals past its bound and counts them; a normal open loop keeps every one", async () => {
    // 2 clients of a server answering in 100 ms serve 20/s: arrivals at 200/s fall behind.
    const params = { clients: 2, samples: 40, objectSizeBytes: 64 };
    const openLoop = { rateHz: 200, arrivals: "fixed" as const, seed: 1 };
    const kept = await phaseOf(100, { params, openLoop });
    const shed = await phaseOf(100, { params, openLoop, shedBacklogAfterMs: 50 });

    expect(kept.requests).toBe(40);
    expect(kept.client?.figures.shed).toBe(0);
    expect(kept.client?.arrivals).toBe("kept");
    expect(kept.client?.verdict.reasons).toContain("schedule-behind");

    expect(shed.client?.arrivals).toBe("shed");
    expect(shed.client?.figures.shed).toBeGreaterThan(0);
    expect(shed.requests + (shed.client?.figures.shed ?? 0)).toBe(40);
    // What was sent waited at most the bound: the kept loop's backlog grew instead.
    expect(shed.latencyMs?.max ?? Infinity).toBeLessThan(kept.latencyMs?.max ?? 0);
    expect(shed.client?.figures.behindMs).toBeLessThan(kept.client?.figures.behindMs ?? 0);
  });
});
