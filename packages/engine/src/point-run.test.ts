import { ABORTED_ERROR, HedgeOptionsSchema, type RequestRecord } from "@taillab/api";
import { ksDistance, weightedLatenciesFromSamples } from "@taillab/core";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPoint, type PointRunOptions } from "./point-run.ts";
import { epochNowMs } from "./run-clock.ts";
import { RunTuner } from "./run-tuner.ts";

/**
 * The coordinator and its workers as one unit, against a scripted HTTP server: the open loop's
 * one schedule, the closed loop's shared counter, per-operation accounting, stops. Timing goals
 * (how late requests leave) are `pnpm bench` figures; these tests check what a busy machine
 * cannot change: which requests were meant to start when, and how they were counted.
 */

type Route = (request: IncomingMessage, response: ServerResponse) => void;

let server: Server;
let url = "";
let route: Route = answerAtOnce;

function answerAtOnce(request: IncomingMessage, response: ServerResponse): void {
  request.resume();
  request.on("end", () => {
    const body = request.method === "GET" ? "x".repeat(64) : "";
    response.writeHead(200, { "content-length": body.length }).end(body);
  });
}

beforeAll(async () => {
  server = createServer((request, response) => route(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function options(overrides: Partial<PointRunOptions>): PointRunOptions {
  return {
    targets: [{ url, region: "us-east-1", addressing: "path", credentials: null, bucket: "b" }],
    transportKind: "fast",
    params: { clients: 6, samples: 600, objectSizeBytes: 64 },
    workload: null,
    openLoop: null,
    mode: "normal",
    hedge: HedgeOptionsSchema.parse({}),
    replicaChoice: "round-robin",
    phases: ["write", "read"],
    keyPrefix: `t/${Math.random().toString(36).slice(2)}/`,
    firstKey: 0,
    firstPhaseIndex: 0,
    // Three workers on this 2-core machine: the schedule must hold however they are scheduled.
    workers: 3,
    verify: false,
    runStartEpochMs: epochNowMs(),
    ...overrides,
  };
}

async function run(overrides: Partial<PointRunOptions>) {
  const records: RequestRecord[] = [];
  const result = await runPoint(
    options({ onRecords: (batch) => records.push(...batch), ...overrides }),
  );
  return { result, records };
}

/** The first attempts of one operation, in intended-start order. */
function firstAttempts(records: readonly RequestRecord[], op: string): RequestRecord[] {
  return records
    .filter((record) => record.op === op && record.attempt === 1)
    .sort((a, b) => a.intendedStartUs - b.intendedStartUs);
}

const gapsOf = (records: readonly RequestRecord[]) =>
  records
    .slice(1)
    .map(
      (record, index) => record.intendedStartUs - (records[index] as RequestRecord).intendedStartUs,
    );

describe("the open loop's one schedule, over three workers", () => {
  it("fixed rate: the workers' requests together are evenly spaced, each sent once, never early", async () => {
    const { result, records } = await run({
      openLoop: { rateHz: 1000, arrivals: "fixed", seed: 1 },
    });
    const puts = firstAttempts(records, "PUT");
    expect(puts).toHaveLength(600);
    // 1 ms apart on one grid: not three copies of a 333/s schedule leaving together.
    for (const gap of gapsOf(puts)) expect(Math.abs(gap - 1000)).toBeLessThanOrEqual(1);
    expect(new Set(puts.map((record) => record.key)).size).toBe(600);
    for (const record of puts)
      expect(record.readyUs).toBeGreaterThanOrEqual(record.intendedStartUs);
    // Sent by the three workers (a dispatcher is its worker's first client: 6 over 3 → 0, 2, 4).
    for (const record of puts) expect([0, 2, 4]).toContain(record.client);
    expect(
      result.phases.map(({ summary }) => [summary.op, summary.loop, summary.requests]),
    ).toEqual([
      ["PUT", "open", 600],
      ["GET", "open", 600],
    ]);
  });

  it("Poisson: one process across the workers, its gaps exponential by a Kolmogorov-Smirnov test", async () => {
    const { records } = await run({
      params: { clients: 6, samples: 1500, objectSizeBytes: 64 },
      phases: ["write"],
      openLoop: { rateHz: 2000, arrivals: "poisson", seed: 7 },
    });
    const puts = firstAttempts(records, "PUT");
    expect(puts).toHaveLength(1500);
    // Intended starts are whole µs, as every time of a record: a gap under half a µs is 0.
    const gapsMs = gapsOf(puts)
      .filter((gapUs) => gapUs > 0)
      .map((gapUs) => gapUs / 1000);
    const meanMs = 1000 / 2000;
    const distance = ksDistance(
      weightedLatenciesFromSamples(gapsMs),
      (ms) => 1 - Math.exp(-ms / meanMs),
    );
    // The critical value at α = 0.01 for n = 1 499 is 1.63 / √n ≈ 0.042.
    expect(distance).toBeLessThan(1.63 / Math.sqrt(gapsMs.length));
    for (const record of puts) expect(Number.isInteger(record.intendedStartUs)).toBe(true);
    expect(new Set(puts.map((record) => record.key)).size).toBe(1500);
  });

  it("charges missed starts to the operation drawn, in a mix without GETs", async () => {
    // 20 000/s of PUTs into six connections: most requests leave late.
    const { result } = await run({
      params: { clients: 6, samples: 2000, objectSizeBytes: 64 },
      workload: {
        ops: "put:100",
        prepareObjects: 1,
        keys: "uniform",
        listPageSize: 100,
        multipartPartBytes: 8 * 1024 * 1024,
        multipartPartsInFlight: 1,
        seed: 1,
        warmupMs: 0,
        durationMs: 100,
      },
      openLoop: { rateHz: 20_000, arrivals: "fixed", seed: 1 },
    });
    const [put] = result.phases.map(({ summary }) => summary);
    expect(result.phases).toHaveLength(1);
    expect(put?.op).toBe("PUT");
    expect(put?.missedStarts).toBeGreaterThan(0);
  });
});

describe("the closed loop", () => {
  it("shares the samples between every client of every worker, each key once", async () => {
    const { result, records } = await run({});
    const puts = firstAttempts(records, "PUT");
    expect(puts).toHaveLength(600);
    expect(new Set(puts.map((record) => record.key)).size).toBe(600);
    // Six clients, numbered across the workers.
    expect(new Set(puts.map((record) => record.client))).toEqual(new Set([0, 1, 2, 3, 4, 5]));
    for (const record of puts)
      expect(record.readyUs).toBeGreaterThanOrEqual(record.intendedStartUs);
    expect(result).toMatchObject({ writtenKeyCount: 600, stopped: false, phaseCount: 2 });
    expect(new Set(records.map((record) => record.phaseIndex))).toEqual(new Set([0, 1]));
  });
});

describe("connection pools", () => {
  // A backup that waited for its own request's connection would reach the server only after the
  // first attempt answered: the pool must hold it beside the first attempt (2× clients).
  it.each([
    { mode: "tied" as const, hedge: HedgeOptionsSchema.parse({ tiedDelayMs: 0 }) },
    {
      mode: "hedged" as const,
      hedge: HedgeOptionsSchema.parse({ delay: "1ms", budgetPercent: "100%" }),
    },
  ])(
    "$mode, one replica and one client: the backup reaches the server while the first attempt is out",
    async ({ mode, hedge }) => {
      const held: ServerResponse[] = [];
      let inFlight = 0;
      const inFlightSeen: number[] = [];
      const answer = (response: ServerResponse) => response.writeHead(200).end();
      route = (request, response) => {
        inFlight += 1;
        inFlightSeen.push(inFlight);
        response.on("close", () => (inFlight -= 1));
        request.resume();
        if (held.length === 0) {
          // The first attempt waits for its backup; only a pool without room for the backup
          // makes it wait this long.
          held.push(response);
          setTimeout(() => held.splice(0).forEach(answer), 20_000).unref();
          return;
        }
        held.splice(0).forEach(answer);
        answer(response);
      };
      try {
        const { result } = await run({
          params: { clients: 1, samples: 3, objectSizeBytes: 64 },
          phases: ["write"],
          workers: 1,
          mode,
          hedge,
        });
        expect(result.phases[0]?.summary).toMatchObject({ requests: 3, errors: 0 });
        // Each request's second attempt arrived with its first still held: 2 in flight, 3 times.
        expect(inFlightSeen.filter((count) => count === 2)).toHaveLength(3);
      } finally {
        route = answerAtOnce;
        held.splice(0).forEach((response) => response.destroy());
      }
    },
  );
});

describe("the seconds of a phase", () => {
  it("are handed over as they get old, so a long phase holds only its newest ones", async () => {
    const handedOver: { index: number; count: number; duringPhase: boolean }[] = [];
    const held: number[] = [];
    let ended = false;
    // Three seconds of schedule whatever the machine's speed.
    const { result } = await run({
      params: { clients: 6, samples: 1500, objectSizeBytes: 64 },
      phases: ["write"],
      openLoop: { rateHz: 500, arrivals: "fixed", seed: 1 },
      recentSeconds: 1,
      onIntervals: (op, intervals) => {
        expect(op).toBe("PUT");
        for (const { index, latency } of intervals) {
          handedOver.push({ index, count: latency?.count ?? 0, duringPhase: !ended });
        }
      },
      onProgress: (progress) => {
        held.push(progress.encodeRecentIntervals(3600)?.intervals.length ?? 0);
        ended ||= progress.ended;
      },
    });
    // The newest second and the one just over, at most, however many the phase has.
    expect(Math.max(...held)).toBeLessThanOrEqual(2);
    expect(handedOver.some((second) => second.duringPhase)).toBe(true);
    // Every request in one of them; a second that got a late answer came again with it alone.
    const [put] = result.phases;
    expect(handedOver.reduce((sum, second) => sum + second.count, 0)).toBe(1500);
    expect(put?.summary.requests).toBe(1500);
    expect(put?.account.intervals).toEqual([]);
  });
});

describe("a shard of a distributed run", () => {
  it("starts at its gate and sends only its own requests of the one schedule", async () => {
    const runStartEpochMs = epochNowMs();
    const startAtEpochMs = Math.round(runStartEpochMs) + 300;
    let startedAt: number | null = null;
    // Shard 1 of 3 of a 600-request schedule at 1000/s: requests 1, 4, 7, … with 2 clients.
    const { result, records } = await run({
      runStartEpochMs,
      params: { clients: 2, samples: 200, objectSizeBytes: 64 },
      phases: ["write"],
      openLoop: { rateHz: 1000, arrivals: "fixed", seed: 1 },
      shard: { index: 1, count: 3, firstClient: 2 },
      startGate: async () => startAtEpochMs,
      onStarted: (epochMs) => (startedAt = epochMs),
    });
    expect(startedAt).toBeGreaterThanOrEqual(startAtEpochMs);
    const puts = firstAttempts(records, "PUT");
    expect(puts).toHaveLength(200);
    // The schedule starts 20 ms after the gate's instant, the same in every shard.
    const scheduleStartUs = Math.round((startAtEpochMs - runStartEpochMs) * 1000) + 20_000;
    expect(puts.map((record) => record.intendedStartUs)).toEqual(
      puts.map((_, k) => scheduleStartUs + (3 * k + 1) * 1000),
    );
    // Its clients are numbered after the shard before it (2 clients, 2 workers: 2 and 3).
    for (const record of puts) expect([2, 3]).toContain(record.client);
    expect(result.phases[0]?.summary.requests).toBe(200);
  });
});

describe("a shard's gate before every measured phase", () => {
  it("asks the gate with each phase's number and starts the phase at its answer", async () => {
    const runStartEpochMs = epochNowMs();
    const asked: number[] = [];
    const startsMs: number[] = [];
    const { records } = await run({
      runStartEpochMs,
      params: { clients: 2, samples: 40, objectSizeBytes: 64 },
      phases: ["write", "read", "cleanup"],
      firstPhaseIndex: 5,
      shard: { index: 0, count: 2, firstClient: 0 },
      // Each phase starts 100 ms after the gate is asked: after the previous phase ended.
      startGate: async (phaseIndex) => {
        asked.push(phaseIndex);
        const startMs = epochNowMs() + 100;
        startsMs.push(startMs);
        return startMs;
      },
    });
    expect(asked).toEqual([5, 6, 7]);
    for (const [k, op] of ["PUT", "GET", "DELETE"].entries()) {
      const gateUs = Math.round(((startsMs[k] as number) - runStartEpochMs) * 1000);
      const sent = firstAttempts(records, op).map((record) => record.intendedStartUs);
      expect(sent).toHaveLength(40);
      expect(Math.min(...sent)).toBeGreaterThanOrEqual(gateUs);
    }
  });
});

describe("a stop", () => {
  it("ends a phase whose server never answers: what it cut short reached the server, so it is recorded and counted apart, never as a request", async () => {
    const waiting: ServerResponse[] = [];
    route = (_request, response) => waiting.push(response);
    const stop = new AbortController();
    try {
      const running = run({ signal: stop.signal });
      // Stop once every client has a request out.
      while (waiting.length < 6) await new Promise((resolve) => setTimeout(resolve, 10));
      stop.abort();
      const { result, records } = await running;
      expect(result.stopped).toBe(true);
      expect(result.phases.map(({ summary }) => summary.requests)).toEqual([0]);
      expect(result.phases.map(({ summary }) => summary.errors)).toEqual([0]);
      expect(result.phases.map(({ summary }) => summary.cutOff)).toEqual([waiting.length]);
      expect(records).toHaveLength(waiting.length);
      expect(new Set(records.map((record) => record.error))).toEqual(new Set([ABORTED_ERROR]));
    } finally {
      route = answerAtOnce;
      for (const response of waiting) response.destroy();
    }
  });
});

describe("a live session's retunes", () => {
  it("each ends once every worker has the change, leaving no listener on the workers", async () => {
    const target = options({}).targets[0]!;
    const tuner = new RunTuner({
      mode: "normal",
      hedge: HedgeOptionsSchema.parse({}),
      targets: [target],
    });
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    let retunes = 0;
    try {
      await run({
        tuner,
        params: { clients: 3, samples: 3000, objectSizeBytes: 64 },
        phases: ["write"],
        onProgress: () => {},
        onPhaseStart: () => {
          // More retunes than Node's default of 10 listeners, one after the other, mid-phase.
          void (async () => {
            for (; retunes < 15; retunes += 1) {
              await tuner.retune({ ...tuner.current, mode: retunes % 2 === 0 ? "tied" : "normal" });
            }
          })();
        },
      });
    } finally {
      process.off("warning", onWarning);
    }
    expect(retunes).toBeGreaterThan(10);
    expect(warnings).not.toContain("MaxListenersExceededWarning");
  });
});
