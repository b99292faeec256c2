import type { RequestRecord, TransportKind } from "@taillab/api";
import {
  startKnownLatencyServer,
  startWireProxy,
  type KnownLatencyModel,
  type TruthProcess,
  type WireEntry,
  type WireProxy,
} from "@taillab/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { CLIENT_LIMITS, exactPercentile } from "@taillab/core";
import { runBenchmark } from "./run-benchmark.ts";

/**
 * TailLab's records held against the truth harness: a server with a known latency
 * distribution behind a proxy that timestamps each request on the wire, both processes that
 * share no code with TailLab. Nothing here bounds a time: what the client saw is compared with
 * what the wire saw in the same run.
 */

const secrets = { env: { TRUTH_ACCESS_KEY_ID: "truth", TRUTH_SECRET_ACCESS_KEY: "truth-secret" } };
const credentials = {
  kind: "env",
  accessKeyIdVar: "TRUTH_ACCESS_KEY_ID",
  secretAccessKeyVar: "TRUTH_SECRET_ACCESS_KEY",
} as const;

let started: TruthProcess[] = [];
afterEach(async () => {
  await Promise.all(started.map((part) => part.stop()));
  started = [];
});

/** A known-latency server with a wire proxy in front of it. */
async function replica(model: KnownLatencyModel): Promise<WireProxy> {
  const server = await startKnownLatencyServer(model);
  const proxy = await startWireProxy(server.url);
  started.push(proxy, server);
  return proxy;
}

const objectPath = (entry: WireEntry) => new URL(entry.path, "http://wire").pathname;
const keyOf = (entry: WireEntry) =>
  decodeURIComponent(objectPath(entry).split("/").slice(2).join("/"));
const isObjectRequest = (entry: WireEntry) => keyOf(entry) !== "";

/** The wire's requests of one method on object keys, by key, in arrival order. */
function wireByKey(entries: readonly WireEntry[], method: string): Map<string, WireEntry[]> {
  const byKey = new Map<string, WireEntry[]>();
  for (const entry of entries) {
    if (entry.method !== method || !isObjectRequest(entry)) continue;
    const list = byKey.get(keyOf(entry)) ?? [];
    list.push(entry);
    byKey.set(keyOf(entry), list);
  }
  return byKey;
}

const METHOD_OF: Partial<Record<RequestRecord["op"], string>> = {
  PUT: "PUT",
  GET: "GET",
  DELETE: "DELETE",
};

describe("records against the wire", () => {
  it("every attempt TailLab recorded is one request the wire saw, and no request is missing", async () => {
    const proxy = await replica({ kind: "bimodal", fastMs: 2, slowMs: 40, slowShare: 0.05 });
    const records: RequestRecord[] = [];
    await runBenchmark(
      {
        endpoints: [{ url: proxy.url, credentials }],
        clients: 8,
        samples: 600,
        objectSize: "4KiB",
      },
      secrets,
      { onRecords: (_point, batch) => records.push(...batch) },
    );
    const wire = await proxy.entries();
    for (const op of ["PUT", "GET", "DELETE"] as const) {
      const method = METHOD_OF[op] ?? op;
      const fromWire = wireByKey(wire, method);
      const recorded = records.filter((record) => record.op === op);
      expect(recorded.length, op).toBe(600);
      expect([...fromWire.values()].flat().length, op).toBe(recorded.length);
      for (const record of recorded) expect(fromWire.get(record.key)?.length, record.key).toBe(1);
    }
  });

  it("a request's time as TailLab measured it holds the time its answer took on the wire", async () => {
    const proxy = await replica({ kind: "bimodal", fastMs: 1, slowMs: 30, slowShare: 0.1 });
    const records: RequestRecord[] = [];
    await runBenchmark(
      {
        endpoints: [{ url: proxy.url, credentials }],
        clients: 4,
        samples: 400,
        objectSize: "16KiB",
        phases: ["write", "read"],
      },
      secrets,
      { onRecords: (_point, batch) => records.push(...batch) },
    );
    const fromWire = wireByKey(await proxy.entries(), "GET");
    const gets = records.filter((record) => record.op === "GET" && record.measured);
    expect(gets.length).toBe(400);
    let slowOnWire = 0;
    let slowInRecords = 0;
    for (const record of gets) {
      const [entry] = fromWire.get(record.key) ?? [];
      if (!entry?.endUs || !entry.headersUs) throw new Error(`${record.key}: not on the wire`);
      // The request was handed to the transport before it reached the proxy, and the answer
      // was handed on in full before the client finished reading it: the client's view from
      // ready to its last byte in holds the wire's from the request's arrival to the answer's
      // last byte, whatever else slowed the client down. (Not from sentUs: undici reports a
      // write after making it, and the proxy may have the request by then.)
      const clientUs = record.endUs - record.readyUs;
      const wireAnswerUs = entry.endUs - entry.startUs;
      expect(clientUs, record.key).toBeGreaterThanOrEqual(wireAnswerUs * 0.999);
      expect(record.bytes).toBe(entry.responseBytes);
      if (entry.headersUs - entry.startUs >= 30_000) slowOnWire += 1;
      if (clientUs >= 30_000) slowInRecords += 1;
    }
    // Every answer the server held 30 ms is slow in the records too; some of the 10 % may be
    // joined by requests the client itself was slow with.
    expect(slowOnWire).toBeGreaterThan(0);
    expect(slowInRecords).toBeGreaterThanOrEqual(slowOnWire);
  });
});

describe("open loop against a server that freezes", () => {
  it("reports the percentiles a request arriving at a random moment really sees", async () => {
    // Frozen the first 400 ms of every 2 s: a fifth of the arrivals wait for the freeze's end,
    // uniformly 0–400 ms, so over whole periods pQ = base + F·(1 − (1 − Q)/0.2) exactly.
    const model = { kind: "freeze", baseMs: 2, periodMs: 2000, freezeMs: 400 } as const;
    const proxy = await replica(model);
    const rateHz = 400;
    const periods = 3;
    const summary = await runBenchmark(
      {
        endpoints: [{ url: proxy.url, credentials }],
        clients: 200,
        samples: (rateHz * periods * model.periodMs) / 1000,
        objectSize: "1KiB",
        phases: ["write", "read"],
        openLoop: { rateHz },
      },
      secrets,
    );
    const get = summary.points[0]?.phases.find((phase) => phase.op === "GET");
    if (!get?.latencyMs) throw new Error("no GET latency");
    const frozenShare = model.freezeMs / model.periodMs;
    const expected = (quantile: number) =>
      model.baseMs + model.freezeMs * Math.max(0, 1 - (1 - quantile) / frozenShare);
    // A client that fell behind its schedule, or could not run while requests were in flight,
    // adds its own lateness: then these percentiles are not the server's alone, and TailLab must
    // say so in its verdict. Either the figures are the server's, or the verdict says they are not.
    if (get.missedStarts / get.requests > 0.01) expect(get.client?.verdict.keptUp).toBe(false);
    if (get.client?.verdict.keptUp === false) return;
    const wireMs = [...wireByKey(await proxy.entries(), "GET").values()]
      .flat()
      .map((entry) => ((entry.endUs ?? Number.NaN) - entry.startUs) / 1000)
      .sort((a, b) => a - b);
    for (const quantile of [0.9, 0.99]) {
      const onWire = exactPercentile(wireMs, quantile * 100);
      // The arrivals reached the server when the schedule said, frozen fifth included: a client
      // that waited for answers (coordinated omission) would leave the wire's p90 near baseMs.
      // (Below the exact figure only by the few starts a kept-up client may miss.)
      expect(onWire, `wire p${quantile * 100}`).toBeGreaterThan(expected(quantile) * 0.9);
      // TailLab's figure holds the wire's, and adds at most the client's share a kept-up
      // verdict allows. The wire's own excess over the model (a busy server's late timers, the
      // burst after a freeze) is the server's, and TailLab must report it.
      const figure = get.latencyMs[quantile === 0.9 ? "p90" : "p99"];
      expect(figure, `p${quantile * 100}`).toBeGreaterThanOrEqual(onWire * 0.999);
      expect(figure, `p${quantile * 100}`).toBeLessThan(onWire * (1 + CLIENT_LIMITS.stallShare));
    }
  });
});

describe("backup requests against the wire", () => {
  /** GETs of one run on two replicas, each behind its own proxy, and what the wire saw. */
  async function hedgedRun(
    mode: "hedged" | "adaptive" | "tied",
    hedge: object,
    transport: TransportKind = "fast",
  ) {
    const model = { kind: "stalls", baseMs: 1, stallMs: 150, probability: 0.05 } as const;
    const proxies = [await replica({ ...model, seed: 3 }), await replica({ ...model, seed: 4 })];
    const records: RequestRecord[] = [];
    const summary = await runBenchmark(
      {
        endpoints: proxies.map((proxy) => ({ url: proxy.url, credentials })),
        clients: 8,
        samples: 800,
        objectSize: "8KiB",
        phases: ["write", "read"],
        mode,
        hedge,
        transport,
      },
      secrets,
      { onRecords: (_point, batch) => records.push(...batch) },
    );
    const get = summary.points[0]?.phases.find((phase) => phase.op === "GET");
    if (!get?.hedge) throw new Error("no GET hedge summary");
    const wire = (await Promise.all(proxies.map((proxy) => proxy.entries()))).map((entries) =>
      wireByKey(entries, "GET"),
    );
    const gets = records.filter((record) => record.op === "GET" && record.measured);
    return { get, hedge: get.hedge, wire, gets };
  }

  for (const [mode, hedge] of [
    ["hedged", { delay: "10ms", budgetPercent: 20 }],
    ["adaptive", { delay: "p90", budgetPercent: 20, minSamples: 5 }],
    ["tied", {}],
  ] as const) {
    it(`${mode}: the extra requests counted are the backups the replicas received`, async () => {
      const { get, hedge: cost, wire } = await hedgedRun(mode, hedge);
      const onWire = wire.reduce(
        (sum, byKey) => sum + [...byKey.values()].reduce((n, list) => n + list.length, 0),
        0,
      );
      expect(cost.attempts).toBe(onWire);
      expect(cost.extraPct).toBeCloseTo((100 * (onWire - get.requests)) / get.requests, 6);
    });
  }

  it.each<TransportKind>(["fast", "sdk"])(
    "tied: the bytes wasted are what the losers moved on the wire, no more and no less (%s transport)",
    async (transport) => {
      const { hedge: cost, wire, gets } = await hedgedRun("tied", {}, transport);
      // A loser's bytes are its socket's traffic while it was on it, headers included; the proxy
      // counts bodies only, so each loser may add at most its two headers to what the proxy saw.
      const HEADERS_BYTES = 4096;
      let loserBodyBytes = 0;
      let losers = 0;
      let bodiesOnWire = 0;
      let bodiesMissed = 0;
      for (const record of gets) {
        if (record.winner) continue;
        const [entry] = wire[record.replica]?.get(record.key) ?? [];
        const onWire = (entry?.requestBytes ?? 0) + (entry?.responseBytes ?? 0);
        loserBodyBytes += onWire;
        losers += 1;
        expect(record.bytes, record.key).toBeLessThanOrEqual(onWire + HEADERS_BYTES);
        if (record.status < 300 && onWire > 0) {
          bodiesOnWire += 1;
          if (record.bytes < onWire) bodiesMissed += 1;
        }
      }
      // A loser's answer that reached the machine counts even when the loop had not read it when
      // the loser was cancelled (a tied loser's, often: both answers land in one turn of the loop).
      // Only bytes the proxy wrote in the moment between that count and the reset can escape it.
      expect(bodiesOnWire).toBeGreaterThan(0);
      expect(bodiesMissed).toBeLessThanOrEqual(Math.ceil(bodiesOnWire * 0.05));
      // Both copies of a tied GET are answered within a millisecond or so: many losers' bodies
      // cross the wire before the cancel does, and they are what the twin cost.
      expect(loserBodyBytes).toBeGreaterThan(0);
      expect(cost.wastedBytes).toBeGreaterThan(0);
      expect(cost.wastedBytes).toBe(gets.filter((r) => !r.winner).reduce((n, r) => n + r.bytes, 0));
      expect(cost.wastedBytes).toBeLessThanOrEqual(loserBodyBytes + losers * HEADERS_BYTES);
    },
  );
});
