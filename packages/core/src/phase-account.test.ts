import { ABORTED_ERROR, PhaseAccountDeltaSchema } from "@taillab/api";
import { describe, expect, it } from "vitest";
import type { AttemptTimeline, LogicalRequest } from "./logical-request.ts";
import { PhaseAccount, type PhaseAccountShape } from "./phase-account.ts";
import { intervalLogLines, formatIntervalLog, intervalsFromLog } from "./interval-log.ts";
import { createRandom } from "./random.ts";

const GET: PhaseAccountShape = { op: "GET", loop: "closed", hedgeBudgetPct: null };

/** An attempt sent `queueUs` after ready, answering its headers `serverUs` later, etc. */
function attempt(
  readyUs: number,
  { queueUs = 0, serverUs = 1000, bodyUs = 0, bytes = 4096, error = null as string | null } = {},
  replica = 0,
): AttemptTimeline {
  const sentUs = readyUs + queueUs;
  const headersUs = sentUs + serverUs;
  return {
    replica,
    readyUs,
    sentUs,
    headersUs,
    firstByteUs: headersUs,
    endUs: headersUs + bodyUs,
    bytes: error === null ? bytes : 0,
    error,
  };
}

function request(
  intendedStartUs: number,
  attempts: AttemptTimeline[],
  winner: number | null,
  overrides: Partial<LogicalRequest> = {},
): LogicalRequest {
  return {
    op: "GET",
    intendedStartUs,
    phaseIndex: 0,
    client: 0,
    measured: true,
    attempts,
    winner,
    ...overrides,
  };
}

function summaryOf(shape: PhaseAccountShape, requests: readonly LogicalRequest[]) {
  const account = new PhaseAccount(shape);
  requests.forEach((each) => account.add(each));
  const summary = account.summary();
  account.destroy();
  return summary;
}

describe("PhaseAccount: what each figure means", () => {
  it("counts a request a stop cut off apart: not a request, an error or a latency", () => {
    const answered = request(0, [attempt(0)], 0);
    const cutOff = request(0, [attempt(0, { serverUs: 60_000_000, error: ABORTED_ERROR })], null);
    const failed = request(0, [attempt(0, { error: "SlowDown" })], null);
    const summary = summaryOf(GET, [answered, cutOff, failed]);
    expect(summary).toMatchObject({ requests: 2, cutOff: 1, errors: 1 });
    expect(summary.latencyMs?.max).toBe(1);
    expect(summaryOf(GET, [answered]).cutOff).toBeUndefined();

    // Handed over by a worker and merged by the coordinator, as a shard's snapshot too.
    const worker = new PhaseAccount(GET);
    worker.add(cutOff);
    expect(worker.hasNews).toBe(true);
    const coordinator = new PhaseAccount(GET);
    coordinator.merge(PhaseAccountDeltaSchema.parse(worker.takeDelta()));
    coordinator.merge(PhaseAccountDeltaSchema.parse(coordinator.snapshot()));
    expect(coordinator.summary()).toMatchObject({ requests: 0, cutOff: 2, errors: 0 });
    worker.destroy();
    coordinator.destroy();
  });

  it("times a request from its intended start, in parts that add up", () => {
    // Scheduled at 0, picked up 500 µs late, sent 300 µs later, headers 2 ms later, body 1 ms.
    const only = request(0, [attempt(500, { queueUs: 300, serverUs: 2000, bodyUs: 1000 })], 0);
    only.attempts[0]!.firstByteUs = only.attempts[0]!.headersUs + 100;
    const summary = summaryOf({ ...GET, loop: "open" }, [only]);
    expect(summary.latencyMs?.max).toBe(3.8);
    expect(summary.clientQueueMs?.max).toBe(0.8);
    expect(summary.serviceMs?.max).toBe(3);
    expect(summary.ttfbMs?.max).toBe(2.1);
    expect(summary.transferMs?.max).toBe(0.9);
    expect(summary.tail?.p99).toMatchObject({
      requests: 1,
      meanMs: 3.8,
      clientQueueMs: 0.8,
      hedgeWaitMs: 0,
      serverMs: 2.1,
      transferMs: 0.9,
    });
    expect(summary.missedStarts).toBe(0);
  });

  it("takes a new connection out of the client queue and a PUT's upload out of TTFB", () => {
    // Sent 800 µs after its start, 500 of them connecting; its body on the wire for 1.5 ms.
    const put = request(0, [attempt(0, { queueUs: 800, serverUs: 2000, bodyUs: 100 })], 0, {
      op: "PUT",
    });
    Object.assign(put.attempts[0]!, { connectUs: 500, bodySentUs: 800 + 1500 });
    const summary = summaryOf({ ...GET, op: "PUT" }, [put]);
    expect(summary.latencyMs?.max).toBe(2.9);
    expect(summary.clientQueueMs?.max).toBe(0.3);
    expect(summary.connectMs?.max).toBe(0.5);
    expect(summary.uploadMs?.max).toBe(1.5);
    expect(summary.ttfbMs?.max).toBe(0.5);
    // Service is still the whole answering attempt, sent → done.
    expect(summary.serviceMs?.max).toBe(2.1);
    expect(summary.tail?.p99).toMatchObject({
      meanMs: 2.9,
      clientQueueMs: 0.3,
      connectMs: 0.5,
      uploadMs: 1.5,
      serverMs: 0.5,
      transferMs: 0.1,
    });
    // On a connection already open, with no body: both 0 (recorded as the 1 µs floor).
    const get = summaryOf(GET, [request(0, [attempt(0, { queueUs: 800 })], 0)]);
    expect(get.clientQueueMs?.max).toBe(0.8);
    expect(get.tail?.p99).toMatchObject({ connectMs: 0, uploadMs: 0 });
  });

  it("counts a request picked up more than 2 ms after its schedule as a missed start", () => {
    const summary = summaryOf({ ...GET, loop: "open" }, [
      request(0, [attempt(2001)], 0),
      request(10_000, [attempt(12_000)], 0),
    ]);
    expect(summary.missedStarts).toBe(1);
  });

  it("counts no missed start in a closed loop, which has no schedule to miss", () => {
    const summary = summaryOf(GET, [request(0, [attempt(2001)], 0)]);
    expect(summary.missedStarts).toBe(0);
    expect(summary.clientQueueMs?.max).toBe(2.001);
  });

  it("counts failures by the last attempt's code and leaves them out of the latencies", () => {
    const summary = summaryOf(GET, [
      request(0, [attempt(0, { error: "SlowDown" })], null),
      request(0, [attempt(0, { error: "SlowDown" })], null),
      request(0, [attempt(0, { error: "InternalError" })], null),
    ]);
    expect(summary).toMatchObject({
      requests: 3,
      errors: 3,
      errorsByCode: { SlowDown: 2, InternalError: 1 },
      bytes: 0,
      latencyMs: null,
      serviceMs: null,
      tail: null,
    });
  });

  it("leaves out requests that are not measured (prepared objects, warm-up)", () => {
    const summary = summaryOf(GET, [
      request(0, [attempt(0)], 0, { measured: false }),
      request(5000, [attempt(5000)], 0),
    ]);
    expect(summary.requests).toBe(1);
    expect(summary.durationMs).toBe(1);
  });

  it("accounts for backups: extra attempts, cancellations, waste, wins and the wait", () => {
    const backupWon = request(
      0,
      [attempt(0, { serverUs: 50_000, error: "Cancelled" }, 0), attempt(30_000, {}, 1)],
      1,
    );
    const firstWon = request(
      100_000,
      [attempt(100_000, {}, 1), attempt(120_000, { bytes: 4096 }, 1)],
      0,
    );
    const single = request(200_000, [attempt(200_000)], 0);
    const summary = summaryOf({ ...GET, hedgeBudgetPct: 10 }, [backupWon, firstWon, single]);
    expect(summary.hedge).toEqual({
      delayMs: 25,
      budgetPct: 10,
      attempts: 5,
      extraPct: 66.667,
      cancelled: 1,
      wastedBytes: 4096,
      wonByBackup: 1,
      sameReplica: 1,
      notSent: 0,
    });
    // The backup's request: 30 ms waiting for the backup, then 1 ms at the server.
    expect(summary.latencyMs?.max).toBe(31);
    expect(summary.tail?.p99).toMatchObject({ hedgeWaitMs: 30, serverMs: 1 });
  });

  it("counts a backup cancelled or refused before it was written apart: no extra request", () => {
    // The first attempt answered while its backup waited for a connection: sent = end.
    const cancelledUnsent = request(
      0,
      [attempt(0, { serverUs: 12_000 }), attempt(10_000, { serverUs: 0, error: "Cancelled" }, 1)],
      0,
    );
    const refused = request(
      100_000,
      [
        attempt(100_000, { serverUs: 30_000 }),
        attempt(110_000, { serverUs: 0, error: "ECONNREFUSED" }, 1),
      ],
      0,
    );
    const sent = request(
      200_000,
      [attempt(200_000, { serverUs: 50_000, error: "Cancelled" }), attempt(210_000, {}, 1)],
      1,
    );
    // A tied request whose first copy never left: its twin is the one request the servers saw.
    const twinOnly = request(
      300_000,
      [attempt(300_000, { serverUs: 0, error: "Cancelled" }), attempt(300_000, {}, 1)],
      1,
    );
    const summary = summaryOf({ ...GET, hedgeBudgetPct: 10 }, [
      cancelledUnsent,
      refused,
      sent,
      twinOnly,
    ]);
    expect(summary.hedge).toMatchObject({
      attempts: 5,
      extraPct: 25,
      notSent: 3,
      cancelled: 1,
      delayMs: 10,
      sameReplica: 0,
      wonByBackup: 2,
    });
  });

  it("counts the reconnects that cancelled attempts caused, and their mean connect time", () => {
    const hedged = { ...GET, hedgeBudgetPct: 10 };
    const loser = request(0, [attempt(0, { error: "Cancelled" }), attempt(0, {}, 1)], 1);
    // The requests after it: each first on a connection that replaced a closed one.
    const paid = (startUs: number, reconnectUs: number) =>
      request(startUs, [{ ...attempt(startUs, { queueUs: reconnectUs }), reconnectUs }], 0);
    const worker = new PhaseAccount(hedged);
    [loser, paid(10_000, 2000), paid(20_000, 4000)].forEach((each) => worker.add(each));
    expect(worker.summary().hedge).toMatchObject({ reconnects: 2, reconnectMeanMs: 3 });
    // They travel with a worker's delta.
    const coordinator = new PhaseAccount(hedged);
    coordinator.merge(PhaseAccountDeltaSchema.parse(worker.takeDelta()));
    expect(coordinator.summary().hedge).toMatchObject({ reconnects: 2, reconnectMeanMs: 3 });
    worker.destroy();
    coordinator.destroy();
    // None: no figure, as in runs rebuilt from records.
    expect(summaryOf(hedged, [loser]).hedge).not.toHaveProperty("reconnects");
  });

  it("counts parts that came out negative (clocks that disagree) rather than hide them", () => {
    // Sent 40 µs before its intended start: the pacer's clock and the worker's disagree.
    const early = request(1000, [attempt(960)], 0);
    const fine = request(5000, [attempt(5000)], 0);
    const summary = summaryOf(GET, [early, fine]);
    expect(summary.negativeIntervals).toBe(1);
    expect(summary.requests).toBe(2);
    expect(summaryOf(GET, [fine]).negativeIntervals).toBeUndefined();
    // Merged from a worker's delta, the count travels with it.
    const worker = new PhaseAccount(GET);
    worker.add(early);
    const coordinator = new PhaseAccount(GET);
    coordinator.merge(PhaseAccountDeltaSchema.parse(worker.takeDelta()));
    expect(coordinator.summary().negativeIntervals).toBe(1);
    worker.destroy();
    coordinator.destroy();
  });

  it("has no hedge summary where backups are off", () => {
    expect(summaryOf(GET, [request(0, [attempt(0)], 0)]).hedge).toBeUndefined();
  });

  it("measures throughput over the whole phase and over the window where all clients were busy", () => {
    // Two clients, each with back-to-back 10 ms requests: client 1 starts 100 ms late and
    // client 0 stops 100 ms early, so only 100…900 ms had both busy.
    const requests: LogicalRequest[] = [];
    for (const [client, fromUs, toUs] of [
      [0, 0, 900_000],
      [1, 100_000, 1_000_000],
    ] as const) {
      for (let startUs = fromUs; startUs < toUs; startUs += 10_000) {
        requests.push(
          request(startUs, [attempt(startUs, { serverUs: 10_000, bytes: 1024 * 1024 })], 0, {
            client,
          }),
        );
      }
    }
    const summary = summaryOf(GET, requests);
    expect(summary.durationMs).toBe(1000);
    expect(summary.opsPerSec).toBe(180);
    expect(summary.steady).toEqual({
      fromMs: 100,
      toMs: 900,
      durationMs: 800,
      // Answers at 100, 110 … 890 ms from client 0 and 110 … 890 ms from client 1.
      requests: 159,
      bytes: 159 * 1024 * 1024,
      throughputMBps: 198.75,
      opsPerSec: 198.75,
    });
  });

  it("adds up repetitions as segments of their own: durations summed, not spanned", () => {
    const summary = summaryOf(GET, [
      request(0, [attempt(0, { serverUs: 100_000 })], 0),
      request(5_000_000, [attempt(5_000_000, { serverUs: 100_000 })], 0, { phaseIndex: 3 }),
    ]);
    expect(summary.durationMs).toBe(200);
  });

  it("keeps percentiles over time by the second each answer came", () => {
    const account = new PhaseAccount(GET);
    account.add(request(0, [attempt(0, { serverUs: 2000 })], 0));
    account.add(request(900_000, [attempt(900_000, { serverUs: 200_000 })], 0));
    account.add(request(1_500_000, [attempt(1_500_000, { error: "SlowDown" })], null));
    // One request bounds no percentile from above, and the tail's from below alone.
    const bounds = (ms: number) => ({
      p50: { lo: null, hi: null },
      p99: { lo: ms, hi: null },
      p999: { lo: ms, hi: null },
    });
    expect(account.intervalStats()).toEqual([
      {
        startMs: 0,
        lengthMs: 1000,
        requests: 1,
        errors: 0,
        p50Ms: 2,
        p99Ms: 2,
        p999Ms: 2,
        maxMs: 2,
        percentileIntervals: bounds(2),
        backups: 0,
        bytes: 4096,
        errorsByCode: {},
      },
      {
        startMs: 1000,
        lengthMs: 1000,
        requests: 1,
        errors: 1,
        p50Ms: 200,
        p99Ms: 200,
        p999Ms: 200,
        maxMs: 200,
        percentileIntervals: bounds(200),
        backups: 0,
        bytes: 4096,
        errorsByCode: { SlowDown: 1 },
      },
    ]);
    account.destroy();
  });

  it("gives its newest seconds alone, from the first second they cover", () => {
    const account = new PhaseAccount(GET);
    expect(account.recentIntervals(2)).toBeNull();
    for (const second of [0, 1, 4]) {
      account.add(request(second * 1_000_000, [attempt(second * 1_000_000)], 0));
    }
    // Seconds 3 and 4: second 3 had no answer, so it is covered but has no tallies.
    const recent = account.recentIntervals(2);
    expect(recent?.fromIndex).toBe(3);
    expect(recent?.intervals).toEqual(account.encodedIntervals().slice(-1));
    expect(recent?.intervals.map((interval) => interval.index)).toEqual([4]);
    account.destroy();
  });

  it("gives the percentiles of its newest seconds alone: what the server does now", () => {
    const account = new PhaseAccount(GET);
    expect(account.recentPercentiles(5)).toBeNull();
    // Five slow seconds (400 ms), then five quick ones (2 ms), ten answers a second.
    for (let second = 0; second < 10; second += 1) {
      const serverUs = second < 5 ? 400_000 : 2_000;
      for (let each = 0; each < 10; each += 1) {
        const startUs = second * 1_000_000 + each * 50_000;
        account.add(request(startUs, [attempt(startUs, { serverUs })], 0));
      }
    }
    const recent = account.recentPercentiles(5);
    expect(recent?.count).toBe(50);
    expect(recent?.p99Ms).toBeLessThan(3);
    expect(account.summary().latencyMs?.p99).toBeGreaterThan(399);
    expect(account.recentPercentiles(6)?.p99Ms).toBeGreaterThan(399);
    account.destroy();
  });

  it("counts the backups of each second's answered requests: the cost over time", () => {
    const account = new PhaseAccount(GET);
    const hedged = (startUs: number, winner: number | null) =>
      request(
        startUs,
        [
          attempt(startUs, { serverUs: 50_000, error: "Cancelled" }),
          attempt(startUs + 30_000, { serverUs: 1000 }, 1),
        ],
        winner,
      );
    account.add(hedged(0, 1));
    account.add(request(100_000, [attempt(100_000)], 0));
    account.add(hedged(1_200_000, 1));
    account.add(hedged(1_400_000, null));
    expect(
      account.intervalStats().map(({ requests, errors, backups }) => ({
        requests,
        errors,
        backups,
      })),
    ).toEqual([
      { requests: 2, errors: 0, backups: 1 },
      { requests: 1, errors: 1, backups: 2 },
    ]);
    // And they survive the log: each backup's wait after its first attempt is a histogram line.
    const lines = intervalLogLines(0, "GET", account.encodedIntervals());
    expect(lines.flatMap((line) => (line.kind === "backups" ? [line.tally.count] : []))).toEqual([
      1, 2,
    ]);
    expect(
      intervalsFromLog(formatIntervalLog(0, lines))[0]?.intervals.map(
        (interval) => interval.backups,
      ),
    ).toEqual([1, 2]);
    // And the account a shard uploads: the contract keeps them, and a merge counts them.
    const uploaded = PhaseAccountDeltaSchema.parse(JSON.parse(JSON.stringify(account.snapshot())));
    const merged = new PhaseAccount(GET);
    merged.merge(uploaded);
    expect(merged.intervalStats().map(({ backups }) => backups)).toEqual([1, 2]);
    // A shard of an older image sent none.
    const older = {
      ...uploaded,
      intervals: uploaded.intervals.map(({ index, latency, failures }) => ({
        index,
        latency,
        failures,
      })),
    };
    const withoutBackups = new PhaseAccount(GET);
    withoutBackups.merge(PhaseAccountDeltaSchema.parse(older));
    expect(withoutBackups.intervalStats().map(({ backups }) => backups)).toEqual([0, 0]);
    for (const each of [account, merged, withoutBackups]) each.destroy();
  });
});

describe("PhaseAccount: what each second moved and how it failed", () => {
  const traffic = [
    request(0, [attempt(100_000, { bytes: 1000 })], 0),
    request(0, [attempt(200_000, { error: "SlowDown" })], null),
    request(0, [attempt(1_100_000, { bytes: 3000 })], 0),
    request(0, [attempt(1_200_000, { error: "InternalError" })], null),
    request(0, [attempt(1_300_000, { error: "SlowDown" })], null),
  ];

  it("counts each second's bytes and errors by code, adding up to the phase's", () => {
    const account = new PhaseAccount(GET);
    traffic.forEach((each) => account.add(each));
    const seconds = account.intervalStats();
    expect(seconds.map(({ bytes, errorsByCode }) => ({ bytes, errorsByCode }))).toEqual([
      { bytes: 1000, errorsByCode: { SlowDown: 1 } },
      { bytes: 3000, errorsByCode: { InternalError: 1, SlowDown: 1 } },
    ]);
    const summary = account.summary();
    expect(seconds.reduce((sum, second) => sum + (second.bytes ?? 0), 0)).toBe(summary.bytes);
    // Through the log and the contract a shard uploads, as they are.
    expect(
      intervalsFromLog(
        formatIntervalLog(0, intervalLogLines(0, "GET", account.encodedIntervals())),
      )[0]?.intervals,
    ).toEqual(seconds);
    const merged = new PhaseAccount(GET);
    merged.merge(PhaseAccountDeltaSchema.parse(JSON.parse(JSON.stringify(account.snapshot()))));
    expect(merged.intervalStats()).toEqual(seconds);
    for (const each of [account, merged]) each.destroy();
  });

  it("does not know a second's counts when a part of it came without them (an older engine's)", () => {
    const account = new PhaseAccount(GET);
    traffic.forEach((each) => account.add(each));
    const older = account.snapshot();
    older.intervals = older.intervals.map(({ counts: _counts, ...interval }) => interval);
    const merged = new PhaseAccount(GET);
    merged.merge(older);
    const [first] = merged.intervalStats();
    expect(first?.requests).toBe(1);
    expect(first && "bytes" in first).toBe(false);
    expect(first && "errorsByCode" in first).toBe(false);
    // Nor the log's: a log without counts lines leaves them out.
    const logged = intervalsFromLog(
      formatIntervalLog(0, intervalLogLines(0, "GET", older.intervals)),
    )[0]?.intervals;
    expect(logged?.map((second) => "bytes" in second)).toEqual([false, false]);
    for (const each of [account, merged]) each.destroy();
  });
});

describe("PhaseAccount: one accounting however the requests are grouped", () => {
  /** A phase of 3 000 random requests over 4 clients: some fail, some were hedged. */
  function randomRequests(seed: number): LogicalRequest[] {
    const random = createRandom(seed);
    const requests: LogicalRequest[] = [];
    const clientClock = [0, 0, 0, 0];
    for (let index = 0; index < 3000; index += 1) {
      const client = index % 4;
      const startUs = (clientClock[client] as number) + Math.round(random.exponential(300));
      const serverUs = Math.round(random.lognormal(4000, 0.8));
      const first = attempt(startUs, {
        queueUs: Math.round(random.exponential(50)),
        serverUs,
        bodyUs: Math.round(random.exponential(200)),
        error: random.next() < 0.02 ? "SlowDown" : null,
      });
      const hedged = serverUs > 9000 && random.next() < 0.8;
      const attempts = hedged
        ? [
            { ...first, error: "Cancelled", bytes: 0 },
            attempt(startUs + 9000, { serverUs: 3000 }, 1),
          ]
        : [first];
      const winner = hedged ? 1 : first.error === null ? 0 : null;
      const last = attempts.at(-1) as AttemptTimeline;
      clientClock[client] = last.endUs;
      requests.push(request(startUs, attempts, winner, { client, measured: index >= 100 }));
    }
    return requests;
  }

  it.each([1, 2, 3])(
    "folds, merged deltas and merged snapshots agree field by field (seed %d)",
    (seed) => {
      const requests = randomRequests(seed);
      const shape: PhaseAccountShape = { op: "GET", loop: "closed", hedgeBudgetPct: 10 };
      const direct = summaryOf(shape, requests);

      // Three "workers" each take every third request and hand deltas every 250 requests.
      const coordinator = new PhaseAccount(shape);
      const workers = [0, 1, 2].map(() => new PhaseAccount(shape));
      requests.forEach((each, index) => {
        const worker = workers[index % 3] as PhaseAccount;
        worker.add(each);
        if (index % 250 === 0) coordinator.merge(worker.takeDelta());
      });
      for (const worker of workers) coordinator.merge(worker.takeDelta());
      expect(coordinator.summary()).toEqual(direct);
      expect(coordinator.intervalStats()).toEqual(
        (() => {
          const account = new PhaseAccount(shape);
          requests.forEach((each) => account.add(each));
          return account.intervalStats();
        })(),
      );

      const fromSnapshot = new PhaseAccount(shape);
      fromSnapshot.merge(coordinator.snapshot());
      expect(fromSnapshot.summary()).toEqual(direct);
      expect(direct.requests).toBe(2900);
      expect(direct.hedge?.wonByBackup).toBeGreaterThan(0);
      expect(direct.steady).not.toBeNull();
    },
  );

  it("keeps the four figures besides the latency and the seconds for a later delta when asked, and loses none", () => {
    const requests = randomRequests(4);
    const shape: PhaseAccountShape = { op: "GET", loop: "closed", hedgeBudgetPct: 10 };
    const worker = new PhaseAccount(shape);
    const coordinator = new PhaseAccount(shape);
    requests.slice(0, 1000).forEach((each) => worker.add(each));
    const light = worker.takeDelta({ withParts: false });
    expect(Object.keys(light.tallies)).toEqual(["latency"]);
    expect(light.intervals).toEqual([]);
    coordinator.merge(light);
    // Live, the coordinator has the latency of every request so far.
    const sofar = new PhaseAccount(shape);
    requests.slice(0, 1000).forEach((each) => sofar.add(each));
    expect(coordinator.latency.count).toBe(sofar.latency.count);
    requests.slice(1000).forEach((each) => worker.add(each));
    const full = worker.takeDelta();
    // The parts of the requests before the light delta come with this one.
    expect(full.tallies.ttfb?.count).toBe(sofar.latency.count + (full.tallies.latency?.count ?? 0));
    coordinator.merge(full);
    expect(coordinator.summary()).toEqual(summaryOf(shape, requests));
    const direct = new PhaseAccount(shape);
    requests.forEach((each) => direct.add(each));
    expect(coordinator.intervalStats()).toEqual(direct.intervalStats());
    direct.destroy();
    for (const account of [worker, coordinator, sofar]) account.destroy();
  });
});

describe("PhaseAccount: completion gaps of a closed loop", () => {
  /** Two clients answering every 5 ms from 0 to 2 s, but for nothing in [from, to) µs. */
  function twoClientsWithSilence(fromUs: number, toUs: number): LogicalRequest[] {
    const requests: LogicalRequest[] = [];
    for (const client of [0, 1]) {
      for (let endUs = 5_000; endUs <= 2_000_000; endUs += 5_000) {
        if (endUs >= fromUs && endUs < toUs) continue;
        requests.push(request(endUs - 1_000, [attempt(endUs - 1_000)], 0, { client }));
      }
    }
    return requests;
  }

  it.each([
    ["none without a silence", 0, 0, 0],
    ["a frozen half second", 500_000, 1_000_000, 500],
    ["a frozen 30 ms", 1_000_000, 1_030_000, 30],
  ])("%s", (_name, fromUs, toUs, gapMs) => {
    const summary = summaryOf(GET, twoClientsWithSilence(fromUs, toUs));
    // The buckets of whole 10 ms: a silence may straddle one more, partly answered.
    expect(summary.completionGapMs).toBeGreaterThanOrEqual(Math.max(0, gapMs - 10));
    expect(summary.completionGapMs).toBeLessThanOrEqual(gapMs);
  });

  it("makes the closed loop's coordinated-omission note part of its summary (the JSON's too)", () => {
    const frozen = summaryOf(GET, twoClientsWithSilence(500_000, 1_000_000));
    expect(frozen.coordinatedOmission).toMatchObject({ strength: "strong", gapMs: 500 });
    expect(frozen.coordinatedOmission?.flags).toMatch(/^--rate \d+\/s$/);
    const steady = summaryOf(GET, twoClientsWithSilence(0, 0));
    expect(steady.coordinatedOmission?.strength).toBe("note");
  });

  it("is kept for a closed loop only", () => {
    const open = summaryOf({ ...GET, loop: "open" }, twoClientsWithSilence(0, 0));
    expect(open.completionGapMs).toBeUndefined();
    expect(open.coordinatedOmission).toBeUndefined();
  });
});
