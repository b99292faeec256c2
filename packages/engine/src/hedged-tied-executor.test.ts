import {
  HedgeOptionsSchema,
  TIE_DROPPED_CODE,
  TIE_DROPPED_STATUS,
  TIE_ID_HEADER,
  type RequestMode,
} from "@taillab/api";
import { createReplicaChooser } from "@taillab/core";
import { describe, expect, it } from "vitest";
import { createRequestExecutor, type SendAttempt } from "./hedged-tied-executor.ts";
import type { RequestOptions, RequestOutcome } from "./transport/index.ts";

const startedAt = performance.now();
const nowUs = () => Math.round((performance.now() - startedAt) * 1000);

/**
 * A fake replica: answers after `latencyMs` (headers first, then the body), or fails with
 * "Aborted" as soon as its signal aborts — what the real transports do.
 */
function replicaSend(
  latencyMsOf: (replica: number, attempt: number) => number,
  log: string[] = [],
) {
  let attempts = 0;
  const send: SendAttempt = (replica: number, options: RequestOptions) => {
    attempts += 1;
    const attempt = attempts;
    const startUs = nowUs();
    log.push(`start ${attempt}@${replica}`);
    return new Promise<RequestOutcome>((resolve) => {
      const latencyMs = latencyMsOf(replica, attempt);
      const timer = setTimeout(() => {
        options.onResponse?.(200);
        setTimeout(() => {
          log.push(`done ${attempt}@${replica}`);
          resolve({
            readyUs: startUs,
            sentUs: startUs,
            headersUs: nowUs(),
            firstByteUs: nowUs(),
            endUs: nowUs(),
            status: 200,
            error: null,
            bytes: 10,
          });
        }, 1);
      }, latencyMs);
      options.signal?.addEventListener("abort", () => {
        clearTimeout(timer);
        log.push(`aborted ${attempt}@${replica}`);
        resolve({
          readyUs: startUs,
          sentUs: startUs,
          headersUs: nowUs(),
          firstByteUs: nowUs(),
          endUs: nowUs(),
          status: 0,
          error: "Aborted",
          bytes: 3,
        });
      });
    });
  };
  return send;
}

function executor(
  mode: RequestMode,
  hedge: object = {},
  replicas = 2,
  stop = new AbortController(),
) {
  return createRequestExecutor({
    mode,
    hedge: HedgeOptionsSchema.parse(hedge),
    chooser: createReplicaChooser({ replicas, strategy: "round-robin" }),
    stopSignal: stop.signal,
  });
}

describe("request executor", () => {
  it("normal: one attempt", async () => {
    const result = await executor("normal").execute(
      replicaSend(() => 5),
      "GET:4KiB",
    );
    expect(result.attempts).toHaveLength(1);
    expect(result.winner).toBe(0);
    expect(result.hedgeDelayMs).toBeNull();
  });

  it("hedged: no backup when the first attempt answers within the delay", async () => {
    const result = await executor("hedged", { delay: "50ms" }).execute(
      replicaSend(() => 5),
      "c",
    );
    expect(result.attempts).toHaveLength(1);
    expect(result.hedgeDelayMs).toBe(50);
  });

  it("hedged: a slow first attempt gets a backup on another replica, which wins and cancels it", async () => {
    const log: string[] = [];
    const send = replicaSend((replica) => (replica === 0 ? 1000 : 5), log);
    const result = await executor("hedged", { delay: "20ms" }).execute(send, "c");
    expect(result.attempts.map((a) => [a.attempt, a.replica, a.cancelled])).toEqual([
      [1, 0, true],
      [2, 1, false],
    ]);
    expect(result.winner).toBe(1);
    expect(result.attempts[0]?.outcome.error).toBe("Cancelled");
    // The answer did not wait for the slow first attempt: it was aborted, never done.
    expect(log).toContain("aborted 1@0");
    expect(log).not.toContain("done 1@0");
  });

  it("hedged: the budget caps backups", async () => {
    const run = executor("hedged", { delay: "1ms", budgetPercent: "10%" });
    let backups = 0;
    for (let index = 0; index < 100; index += 1) {
      const result = await run.execute(
        replicaSend(() => 10),
        "c",
      );
      if (result.attempts.length > 1) backups += 1;
    }
    // 10 % of 100 requests plus the starting burst of 10 tokens.
    expect(backups).toBeGreaterThan(0);
    expect(backups).toBeLessThanOrEqual(20);
  });

  it("hedged: a backup the budget cannot pay for yet leaves once other requests earn its token", async () => {
    // 1 %: one token to start with, and one more per 100 requests.
    const run = executor("hedged", { delay: "10ms", budgetPercent: "1%" });
    // First attempts that would take 10 s: only a backup answers them in this test's time.
    const stalling = () => replicaSend((_replica, attempt) => (attempt === 1 ? 10_000 : 1));
    const first = run.execute(stalling(), "c");
    const second = run.execute(stalling(), "c");
    // Both delays pass (their timers are due before this one): the first takes the only token.
    await new Promise((resolve) => setTimeout(resolve, 30));
    for (let index = 0; index < 100; index += 1) {
      await run.execute(
        replicaSend(() => 0),
        "c",
      );
    }
    for (const result of await Promise.all([first, second])) {
      expect(result.attempts.map((attempt) => attempt.attempt)).toEqual([1, 2]);
      expect(result.winner).toBe(1);
      expect(result.attempts[0]?.outcome.error).toBe("Cancelled");
    }
  });

  it("hedged: a backup cancelled before it was written gives its token back", async () => {
    // 1 %: one token, and the next earned only after 100 requests.
    const run = executor("hedged", { delay: "10ms", budgetPercent: "1%" });
    // A backup that waits for a connection until it is cancelled: never sent (sent = end).
    const unsentBackup: SendAttempt = (replica, options) => {
      if (replica === 0) return replicaSend(() => 30)(replica, options);
      return new Promise((resolve) => {
        const readyUs = nowUs();
        options.signal?.addEventListener("abort", () => {
          const endUs = nowUs();
          resolve({
            readyUs,
            sentUs: endUs,
            headersUs: endUs,
            firstByteUs: endUs,
            endUs,
            status: 0,
            error: "Aborted",
            bytes: 0,
          });
        });
      });
    };
    const first = await run.execute(unsentBackup, "c");
    expect(first.winner).toBe(0);
    expect(first.attempts[1]?.outcome.sentUs).toBe(first.attempts[1]?.outcome.endUs);
    // The token came back: the next slow request gets its backup at once, which wins.
    const second = await run.execute(
      replicaSend((replica) => (replica === 0 ? 1000 : 1)),
      "c",
    );
    expect(second.winner).toBe(1);
  });

  it("hedged with a percentile delay waits for enough samples before hedging", async () => {
    const run = executor("hedged", { delay: "p95", minSamples: 5 });
    const results = [];
    for (let index = 0; index < 8; index += 1)
      results.push(
        await run.execute(
          replicaSend(() => 2),
          "c",
        ),
      );
    expect(results.slice(0, 5).every((result) => result.hedgeDelayMs === null)).toBe(true);
    expect(results.at(-1)?.hedgeDelayMs).toBeGreaterThan(0);
  });

  it("tied: both copies leave at once and the first to answer cancels its twin", async () => {
    const log: string[] = [];
    const send = replicaSend((replica) => (replica === 0 ? 300 : 10), log);
    const result = await executor("tied").execute(send, "c");
    expect(log.slice(0, 2)).toEqual(["start 1@0", "start 2@1"]);
    expect(result.winner).toBe(1);
    expect(result.attempts[0]?.cancelled).toBe(true);
    expect(result.hedgeDelayMs).toBe(0);
  });

  it("tied at delay 0: the twin leaves in the same tick as the first copy, for every request", async () => {
    for (const mode of ["tied", "tied-server"] as const) {
      const run = executor(mode);
      for (let index = 0; index < 20; index += 1) {
        const log: string[] = [];
        // Replicas that answer at once: a twin sent a timer later would find the request done.
        const pending = run.execute(
          replicaSend(() => 0, log),
          "c",
        );
        expect(log.filter((line) => line.startsWith("start"))).toHaveLength(2);
        const result = await pending;
        expect(result.attempts).toHaveLength(2);
      }
    }
  });

  it("tied-server: both copies carry one tie id, new for every request; tied copies carry none", async () => {
    const tieIds: (string | undefined)[][] = [];
    const recordTies: SendAttempt = (replica, options) => {
      (tieIds[tieIds.length - 1] as (string | undefined)[]).push(options.headers?.[TIE_ID_HEADER]);
      return replicaSend(() => 2)(replica, options);
    };
    const run = executor("tied-server");
    for (let index = 0; index < 2; index += 1) {
      tieIds.push([]);
      await run.execute(recordTies, "c");
    }
    const [first, second] = tieIds as [string[], string[]];
    expect(first[0]).toMatch(/\S/);
    expect(first[1]).toBe(first[0]);
    expect(second[0]).toBe(second[1]);
    expect(second[0]).not.toBe(first[0]);

    tieIds.push([]);
    await executor("tied").execute(recordTies, "c");
    expect(tieIds.at(-1)).toEqual([undefined, undefined]);
  });

  it("tied-server: a copy its replica dropped for its twin counts as cancelled, not failed", async () => {
    const send: SendAttempt = async (replica, options) => {
      const startUs = nowUs();
      if (replica === 0) {
        // Its twin started on replica 1 while it waited in replica 0's queue.
        await new Promise((resolve) => setTimeout(resolve, 5));
        options.onResponse?.(TIE_DROPPED_STATUS);
        return {
          readyUs: startUs,
          sentUs: startUs,
          headersUs: startUs,
          firstByteUs: startUs,
          endUs: startUs,
          status: TIE_DROPPED_STATUS,
          error: TIE_DROPPED_CODE,
          bytes: 0,
        };
      }
      return replicaSend(() => 20)(replica, options);
    };
    const result = await executor("tied-server").execute(send, "c");
    const dropped = result.attempts.find((attempt) => attempt.replica === 0);
    const served = result.attempts.find((attempt) => attempt.replica === 1);
    expect(dropped).toMatchObject({
      cancelled: true,
      outcome: { error: "Cancelled", status: TIE_DROPPED_STATUS },
    });
    expect(served).toMatchObject({ cancelled: false, outcome: { error: null } });
    expect(result.winner).toBe(result.attempts.indexOf(served as (typeof result.attempts)[number]));
  });

  it("a failed first attempt does not win when a backup succeeds", async () => {
    let calls = 0;
    const send: SendAttempt = async () => {
      calls += 1;
      const startUs = nowUs();
      if (calls === 1) {
        await new Promise((resolve) => setTimeout(resolve, 30));
        return {
          readyUs: startUs,
          sentUs: startUs,
          headersUs: nowUs(),
          firstByteUs: nowUs(),
          endUs: nowUs(),
          status: 503,
          error: "SlowDown",
          bytes: 0,
        };
      }
      const endUs = nowUs();
      return {
        readyUs: startUs,
        sentUs: startUs,
        headersUs: endUs,
        firstByteUs: endUs,
        endUs,
        status: 200,
        error: null,
        bytes: 1,
      };
    };
    const result = await executor("hedged", { delay: "5ms" }).execute(send, "c");
    expect(result.winner).toBe(1);
    expect(result.attempts[0]?.outcome.error).toBe("SlowDown");
  });

  it("the second attempt goes to the other replica, and with one replica to the same", async () => {
    const one = await executor("tied", {}, 1).execute(
      replicaSend(() => 5),
      "c",
    );
    expect(one.attempts.map((attempt) => attempt.replica)).toEqual([0, 0]);
  });

  it("a stop aborts every attempt in flight", async () => {
    const stop = new AbortController();
    const pending = executor("tied", {}, 2, stop).execute(
      replicaSend(() => 5000),
      "c",
    );
    setTimeout(() => stop.abort(), 20);
    const result = await pending;
    expect(result.winner).toBeNull();
    expect(result.attempts.every((attempt) => attempt.outcome.error === "Aborted")).toBe(true);
  });
});

describe("request executor over many requests", () => {
  it("leaves no listener behind on the run's stop signal", async () => {
    const stop = new AbortController();
    let listeners = 0;
    const signal = stop.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<typeof add>) => {
      listeners += 1;
      add(...args);
    }) as typeof signal.addEventListener;
    signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
      listeners -= 1;
      remove(...args);
    }) as typeof signal.removeEventListener;
    for (const mode of ["hedged", "tied", "tied-server", "adaptive"] as const) {
      const run = executor(mode, { delay: "1ms", budgetPercent: "50%" }, 2, stop);
      for (let index = 0; index < 50; index += 1)
        await run.execute(
          replicaSend(() => 2),
          "c",
        );
    }
    expect(listeners).toBe(0);
  });
});
