import { describe, expect, it } from "vitest";
import {
  formatIntervalLogLine,
  intervalLogHeader,
  intervalLogLines,
  intervalsFromLog,
  parseIntervalLog,
} from "./interval-log.ts";
import { PhaseAccount } from "./phase-account.ts";
import { createRandom } from "./random.ts";

function accountWithTraffic(seed: number): PhaseAccount {
  const random = createRandom(seed);
  const account = new PhaseAccount({ op: "GET", loop: "open", hedgeBudgetPct: null });
  for (let index = 0; index < 5000; index += 1) {
    const startUs = index * 700;
    const endUs = startUs + Math.round(random.lognormal(5000, 1));
    const failed = random.next() < 0.01;
    account.add({
      op: "GET",
      intendedStartUs: startUs,
      phaseIndex: 0,
      client: 0,
      measured: true,
      attempts: [
        {
          replica: 0,
          readyUs: startUs,
          sentUs: startUs,
          headersUs: endUs,
          firstByteUs: endUs,
          endUs,
          bytes: 10,
          error: failed ? "SlowDown" : null,
        },
      ],
      winner: failed ? null : 0,
    });
  }
  return account;
}

describe("interval log", () => {
  it("round-trips an account's percentiles over time through HdrHistogram's log format", () => {
    const account = accountWithTraffic(4);
    const text =
      intervalLogHeader(Date.UTC(2026, 10, 25, 4, 40)) +
      intervalLogLines(2, "GET", account.encodedIntervals()).map(formatIntervalLogLine).join("");
    const parsed = parseIntervalLog(text);
    expect(parsed.runStartEpochMs).toBe(Date.UTC(2026, 10, 25, 4, 40));
    expect(parsed.skippedLines).toBe(0);
    expect(intervalsFromLog(parsed.lines)).toEqual([
      { pointIndex: 2, op: "GET", intervals: account.intervalStats() },
    ]);
    expect(text.split("\n")[3]).toMatch(/^Tag=p2\/GET,0\.000,1\.000,\d+\.\d{3},HIST/);
    account.destroy();
  });

  it("skips a torn last line and says so", () => {
    const account = accountWithTraffic(5);
    const lines = intervalLogLines(0, "GET", account.encodedIntervals()).map(formatIntervalLogLine);
    const torn = intervalLogHeader(0) + lines.join("") + "Tag=p0/GET,9.000,1.0";
    const parsed = parseIntervalLog(torn);
    expect(parsed.lines).toHaveLength(lines.length);
    expect(parsed.skippedLines).toBe(1);
    account.destroy();
  });
});
