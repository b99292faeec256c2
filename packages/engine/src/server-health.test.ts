import { describe, expect, it } from "vitest";
import type { LogicalResult } from "./hedged-tied-executor.ts";
import {
  createHealthBuffer,
  SERVER_LOST_AFTER_MS,
  ServerHealth,
  verdictOf,
} from "./server-health.ts";

function healthAt(): { health: ServerHealth; setNow: (ms: number) => void } {
  let now = 0;
  return {
    health: new ServerHealth(createHealthBuffer(), () => now),
    setNow: (ms) => {
      now = ms;
    },
  };
}

function resultOf(...attempts: { status: number; error: string | null }[]): LogicalResult {
  return {
    attempts: attempts.map((outcome, index) => ({
      attempt: index + 1,
      replica: index,
      cancelled: false,
      outcome: {
        ...outcome,
        bytes: 0,
        readyUs: 0,
        sentUs: 0,
        headersUs: 0,
        firstByteUs: 0,
        endUs: 0,
      },
    })),
    winner: attempts.findIndex((attempt) => attempt.error === null),
    hedgeDelayMs: null,
  };
}

describe("what a request says about the server", () => {
  it.each([
    [[{ status: 200, error: null }], "answered"],
    [[{ status: 503, error: "SlowDown" }], "answered"],
    [[{ status: 0, error: "ECONNREFUSED" }], "unanswered"],
    [[{ status: 0, error: "ClientTimeout" }], "silent"],
    [[{ status: 200, error: "ClientTimeout" }], "unanswered"],
    [[{ status: 0, error: "Aborted" }], "cut"],
    [
      [
        { status: 0, error: "Cancelled" },
        { status: 0, error: "ECONNRESET" },
      ],
      "unanswered",
    ],
    [
      [
        { status: 0, error: "ClientTimeout" },
        { status: 404, error: "NoSuchKey" },
      ],
      "answered",
    ],
  ] as const)("%j → %s", (attempts, verdict) => {
    expect(verdictOf(resultOf(...attempts))).toBe(verdict);
  });
});

describe("ServerHealth", () => {
  it("backs off from 10 ms, doubling to 1 s, while requests get no answer", () => {
    const { health } = healthAt();
    const pauses = Array.from(
      { length: 9 },
      () => health.note("unanswered", 0, "ECONNREFUSED").pauseMs,
    );
    expect(pauses).toEqual([10, 20, 40, 80, 160, 320, 640, 1000, 1000]);
  });

  it("an answer of any status ends the streak; a cut-off request says nothing", () => {
    const { health } = healthAt();
    health.note("unanswered", 0, "ECONNREFUSED");
    health.note("unanswered", 0, "ECONNREFUSED");
    expect(health.note("cut", 0, "Aborted").pauseMs).toBe(0);
    expect(health.note("answered", 0, "SlowDown").pauseMs).toBe(0);
    expect(health.note("unanswered", 0, "ECONNREFUSED").pauseMs).toBe(10);
  });

  it("is lost once nothing but failures came for 5 s, said once, since the first one was sent", () => {
    const { health, setNow } = healthAt();
    setNow(1_000);
    expect(health.note("unanswered", 900, "ECONNREFUSED").loss).toBeNull();
    setNow(900 + SERVER_LOST_AFTER_MS - 1);
    expect(health.note("unanswered", 2_000, "ECONNREFUSED").loss).toBeNull();
    expect(health.lost).toBe(false);
    setNow(900 + SERVER_LOST_AFTER_MS);
    expect(health.note("unanswered", 3_000, "ClientTimeout").loss).toEqual({
      sinceMs: 900,
      atMs: 900 + SERVER_LOST_AFTER_MS,
      failures: 3,
      lastError: "ClientTimeout",
    });
    expect(health.lost).toBe(true);
    expect(health.note("unanswered", 4_000, "ClientTimeout").loss).toBeNull();
  });

  it("one request whose answer started and then dripped past the timeout is not enough: two in a row are", () => {
    const { health, setNow } = healthAt();
    setNow(60_000);
    expect(health.note("unanswered", 0, "ClientTimeout").loss).toBeNull();
    setNow(60_001);
    expect(health.note("unanswered", 1, "ClientTimeout").loss).not.toBeNull();
  });

  it("one request that got not even headers in a whole timeout is enough: a lone client finds a hung server within one timeout", () => {
    const { health, setNow } = healthAt();
    setNow(60_000);
    expect(health.note("silent", 0, "ClientTimeout").loss).toMatchObject({
      sinceMs: 0,
      atMs: 60_000,
      failures: 1,
    });
  });

  it("one silent request is enough even when the run's clock saw it sent a little less than a timeout ago (its deadline started before its send was stamped, on a busy machine)", () => {
    const { health, setNow } = healthAt();
    setNow(SERVER_LOST_AFTER_MS - 20);
    expect(health.note("silent", 0, "ClientTimeout").loss).toMatchObject({ failures: 1 });
  });

  it("is shared: a streak seen by one worker counts what the others saw", () => {
    const buffer = createHealthBuffer();
    const [one, two] = [new ServerHealth(buffer, () => 0), new ServerHealth(buffer, () => 0)];
    one?.note("unanswered", 0, "ECONNREFUSED");
    expect(two?.note("unanswered", 0, "ECONNREFUSED").pauseMs).toBe(20);
  });
});

describe("ServerHealth with a request timeout under 5 s", () => {
  it("is lost once two requests in a row got no answer for one timeout: a hung server is found as the requests in flight time out", () => {
    let now = 0;
    const health = new ServerHealth(createHealthBuffer(), () => now, 3_000);
    now = 3_000;
    expect(health.note("unanswered", 0, "ClientTimeout").loss).toBeNull();
    now = 3_001;
    expect(health.note("unanswered", 2, "ClientTimeout").loss).toMatchObject({
      sinceMs: 0,
      atMs: 3_001,
      failures: 2,
    });
  });
});
