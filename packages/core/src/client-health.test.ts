import type { ClientFigures, PhaseSummary } from "@taillab/api";
import { describe, expect, it } from "vitest";
import {
  clientAdvice,
  clientBoundSpans,
  clientVerdict,
  ClientHealthAccount,
  mergeClientHealth,
  serverAndStall,
  requestStallUs,
  type ClientSample,
} from "./client-health.ts";

const QUIET: ClientFigures = {
  cpuCores: 0.2,
  availableCores: 4,
  busiestWorkerCpu: 0.15,
  eventLoopDelayP99Ms: 1.2,
  stallShare: 0.01,
  starts: 1000,
  missedStarts: 0,
  behindMs: 0,
  shed: 0,
};

describe("clientVerdict", () => {
  it.each<[string, Partial<ClientFigures>, string[]]>([
    ["a quiet client", {}, []],
    ["CPU at 90 % of the cores it may use", { cpuCores: 3.6 }, ["cpu"]],
    ["CPU just under", { cpuCores: 3.59 }, []],
    ["one worker at 90 % of a core", { busiestWorkerCpu: 0.9 }, ["clients-per-worker"]],
    ["a tenth of latency stalled", { stallShare: 0.1 }, ["event-loop-delay"]],
    ["1 % of starts missed", { missedStarts: 10 }, ["schedule-behind"]],
    ["just under 1 % missed", { missedStarts: 9 }, []],
    ["no starts, nothing missed", { starts: 0, missedStarts: 0 }, []],
    [
      "a saturated worker that stalls",
      { busiestWorkerCpu: 0.97, stallShare: 0.4, cpuCores: 3.7 },
      ["cpu", "clients-per-worker", "event-loop-delay"],
    ],
  ])("%s", (_name, change, reasons) => {
    const verdict = clientVerdict({ ...QUIET, ...change });
    expect(verdict.reasons).toEqual(reasons);
    expect(verdict.keptUp).toBe(reasons.length === 0);
  });
});

describe("clientAdvice", () => {
  it.each([
    [["cpu"], ["server-elsewhere", "fewer-clients"]],
    [["clients-per-worker"], ["more-workers", "fewer-clients"]],
    [["schedule-behind"], ["fewer-clients", "more-workers"]],
    [
      ["cpu", "clients-per-worker"],
      ["server-elsewhere", "fewer-clients", "more-workers"],
    ],
    [[], []],
  ] as const)("%j → %j", (reasons, advice) => {
    expect(clientAdvice({ keptUp: reasons.length === 0, reasons: [...reasons] })).toEqual(advice);
  });
});

describe("requestStallUs", () => {
  // Stalls [10, 20), [30, 35) and [100, 300) ms.
  const starts = [10_000, 30_000, 100_000];
  const ends = [20_000, 35_000, 300_000];
  it.each([
    ["answered before any stall", 0, 9_000, 0],
    ["answered as a stall ended: the stall, from the send on", 12_000, 20_000, 8_000],
    ["answered just after, within the probe's tolerance", 0, 21_000, 10_000],
    ["answered long after the last stall: none", 0, 25_000, 0],
    ["earlier stalls in the wait do not count", 0, 35_000, 5_000],
    ["answered inside the long stall", 150_000, 250_000, 100_000],
    ["sent after the stall began", 290_000, 300_000, 10_000],
  ])("%s", (_name, sentUs, firstByteUs, expected) => {
    expect(requestStallUs(starts, ends, starts.length, sentUs, firstByteUs)).toBe(expected);
  });

  it("counts only the stalls kept (count)", () => {
    expect(requestStallUs(starts, ends, 1, 0, 35_000)).toBe(0);
    expect(requestStallUs(starts, ends, 0, 0, 20_000)).toBe(0);
  });
});

function sample(change: Partial<ClientSample>): ClientSample {
  return {
    index: 0,
    worker: 0,
    cpuUs: 0,
    eventLoopDelayP99Us: 0,
    requestStallUs: 0,
    requestLatencyUs: 0,
    starts: 0,
    missedStarts: 0,
    behindUs: 0,
    shed: 0,
    ...change,
  };
}

describe("ClientHealthAccount", () => {
  const setting = {
    availableCores: 2,
    workers: 2,
    clients: 8,
    loop: "open",
    sheds: false,
  } as const;

  it("adds a second's parts and workers: CPU summed, the worst delay and lag kept", () => {
    const account = new ClientHealthAccount(setting);
    account.add(sample({ worker: 0, cpuUs: 300_000, eventLoopDelayP99Us: 2_000, starts: 50 }));
    account.add(sample({ worker: 0, cpuUs: 400_000, eventLoopDelayP99Us: 1_000, starts: 50 }));
    account.add(sample({ worker: 1, cpuUs: 200_000, behindUs: 5_000_000, missedStarts: 3 }));
    const [second] = account.takeChangedSeconds();
    expect(second).toMatchObject({
      startMs: 0,
      cpuCores: 0.9,
      busiestWorkerCpu: 0.7,
      eventLoopDelayP99Ms: 2,
      starts: 100,
      missedStarts: 3,
      behindMs: 5000,
    });
    expect(second?.verdict.reasons).toEqual(["schedule-behind"]);
    expect(account.takeChangedSeconds()).toEqual([]);
  });

  it("judges the phase's tail by the stall of its slowest requests", () => {
    const account = new ClientHealthAccount({ ...setting, loop: "closed" });
    account.add(sample({ requestStallUs: 30_000, requestLatencyUs: 10_000_000, starts: 1000 }));
    // 990 fast requests without a stall, 10 slow ones that stalled 60 of their 100 ms.
    account.addStallTail("GET", [
      [160, [990, 0]],
      [265, [10, 600_000]],
    ]);
    const health = account.health("GET", { p99: 100_000, p999: 100_000 });
    expect(health.tailStallMs).toEqual({ p99: 60, p999: 60 });
    expect(health.figures.stallShare).toBe(0.6);
    expect(health.verdict).toEqual({ keptUp: false, reasons: ["event-loop-delay"] });
    expect(health.arrivals).toBeNull();
    expect(health.clientsPerWorker).toBe(4);
  });

  it("says whether an open loop kept every arrival", () => {
    expect(new ClientHealthAccount(setting).health("GET", null).arrivals).toBe("kept");
    const shedding = new ClientHealthAccount({ ...setting, sheds: true });
    expect(shedding.health("GET", null).arrivals).toBe("shed");
  });
});

describe("mergeClientHealth", () => {
  const setting = {
    availableCores: 2,
    workers: 1,
    clients: 4,
    loop: "closed",
    sheds: false,
  } as const;
  function healthOf(cpuUs: number, requestStallUs: number) {
    const account = new ClientHealthAccount(setting);
    account.add(sample({ cpuUs, requestStallUs, requestLatencyUs: 1_000_000, starts: 10 }));
    return account.health("GET", null);
  }

  it("keeps one as it is, and none as none", () => {
    const one = healthOf(100_000, 0);
    expect(mergeClientHealth([one])).toBe(one);
    expect(mergeClientHealth([undefined, undefined])).toBeUndefined();
  });

  it("judges repetitions together: a stalled one makes the phase client-bound", () => {
    const merged = mergeClientHealth([healthOf(100_000, 0), healthOf(300_000, 500_000), undefined]);
    expect(merged?.figures).toMatchObject({ cpuCores: 0.2, stallShare: 0.5, starts: 20 });
    expect(merged?.verdict).toEqual({ keptUp: false, reasons: ["event-loop-delay"] });
    expect(merged?.seconds).toHaveLength(2);
  });
});

describe("serverAndStall", () => {
  const share = {
    fromMs: 100,
    requests: 10,
    meanMs: 120,
    clientQueueMs: 5,
    hedgeWaitMs: 0,
    serverMs: 110,
    transferMs: 5,
  };
  const phase = { tail: { p99: share, p999: share } } as PhaseSummary;
  it.each([
    ["without health: all server", undefined, { serverMs: 110, clientStallMs: null }],
    ["a stall taken out of server", 30, { serverMs: 80, clientStallMs: 30 }],
    ["never more than server", 500, { serverMs: 0, clientStallMs: 110 }],
  ])("%s", (_name, stall, expected) => {
    const client =
      stall === undefined
        ? undefined
        : ({ tailStallMs: { p99: stall, p999: stall } } as PhaseSummary["client"]);
    expect(serverAndStall({ ...phase, ...(client ? { client } : {}) }, "p99")).toEqual(expected);
  });
});

describe("clientBoundSpans", () => {
  const second = (startMs: number, keptUp: boolean) => ({
    startMs,
    ...QUIET,
    verdict: { keptUp, reasons: keptUp ? [] : (["cpu"] as const).slice() },
  });
  it.each([
    ["none when the client kept up", [second(0, true), second(1000, true)], []],
    [
      "seconds in a row joined, a kept-up second between apart",
      [0, 1000, 2000, 3000, 4000].map((at) => second(at, at === 2000)),
      [
        { fromMs: 0, toMs: 2000 },
        { fromMs: 3000, toMs: 5000 },
      ],
    ],
    [
      "out of order, and one second from two shards counted once",
      [second(5000, false), second(3000, false), second(4000, false), second(4000, true)],
      [{ fromMs: 3000, toMs: 6000 }],
    ],
  ])("%s", (_name, seconds, expected) => {
    expect(clientBoundSpans(seconds)).toEqual(expected);
  });
});
