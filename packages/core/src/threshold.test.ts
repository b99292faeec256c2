import { englishOf } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { evaluateThresholds, parseThreshold, type Threshold } from "./threshold.ts";
import {
  phaseFixture,
  pointFixture,
  runFixture,
  statsFrom,
} from "./test-support/run-summary-fixture.ts";

function parsed(text: string): Threshold {
  const result = parseThreshold(text);
  if (!result.ok) throw new Error(englishOf(result.reason));
  return result.value;
}

function problem(text: string): string {
  const result = parseThreshold(text);
  if (result.ok) throw new Error(`"${text}" parsed`);
  return englishOf(result.reason);
}

describe("parseThreshold", () => {
  it.each([
    [
      "GET p99.9<50ms",
      { op: "GET", figure: { kind: "latency", figure: "p999" }, comparison: "<", value: 50 },
    ],
    [
      "get p99 <= 1.5s",
      { op: "GET", figure: { kind: "latency", figure: "p99" }, comparison: "<=", value: 1500 },
    ],
    ["p50<800us", { op: null, figure: { kind: "latency", figure: "p50" }, value: 0.8 }],
    ["max<20", { figure: { kind: "latency", figure: "max" }, value: 20 }],
    ["PUT ops/s>800", { op: "PUT", figure: { kind: "opsPerSec" }, comparison: ">", value: 800 }],
    ["GET MB/s>=100.5", { figure: { kind: "throughputMBps" }, comparison: ">=", value: 100.5 }],
    ["errors<0.1%", { op: null, figure: { kind: "errorPercent" }, value: 0.1 }],
    ["errors<=3", { figure: { kind: "errorCount" }, value: 3 }],
    ["client-bound=false", { figure: { kind: "clientBound" }, comparison: "=", value: 0 }],
    ["GET p99.99<50ms@ci", { figure: { kind: "latency", figure: "p9999" }, wholeInterval: true }],
  ])("%s", (text, expected) => {
    expect(parsed(text)).toMatchObject({ text, wholeInterval: false, ...expected });
  });

  it.each([
    ["", /expected \[OPERATION\] FIGURE COMPARISON VALUE/],
    ["GET p99.9 50ms", /"GET p99.9 50ms": expected \[OPERATION\]/],
    ["FETCH p99<5ms", /unknown operation "FETCH"; expected one of PUT, GET/],
    ["GET p42<5ms", /unknown figure "p42"; expected p25/],
    ["GET p99<5 parsecs", /expected \[OPERATION\]/],
    ["GET p99<fast", /expected a time such as 50ms, 1.5s or 800us, got "fast"/],
    ["PUT ops/s>lots", /expected a number, got "lots"/],
    ["errors<0.1 percent", /expected \[OPERATION\]/],
    ["errors<some%", /expected a count or a percentage/],
    ["client-bound<1", /expected client-bound=true or client-bound=false/],
    ["client-bound=maybe", /expected client-bound=true or client-bound=false/],
    ["PUT ops/s>800@ci", /@ci \(the whole 95 % interval\) applies to a percentile only/],
  ])("refuses %j in one line naming it", (text, message) => {
    const said = problem(text);
    expect(said).toMatch(message);
    expect(said).not.toContain("\n");
  });
});

describe("evaluateThresholds", () => {
  const intervals = (lo: number | null, hi: number | null) => ({
    confidence: 0.95,
    count: 256,
    precisionPct: 0.1,
    byLevel: Object.fromEntries(
      ["p25", "p50", "p75", "p90", "p99", "p999", "p9999"].map((name) => [name, { lo, hi }]),
    ) as never,
  });
  const run = runFixture("r", [
    pointFixture({ clients: 1, samples: 256, objectSizeBytes: 4096 }, [
      phaseFixture("PUT", 2, { opsPerSec: 900, errors: 1, requests: 2000 }),
      phaseFixture("GET", 10, {
        opsPerSec: 500,
        latencyMs: { ...statsFrom(10), intervals: intervals(55, 70) },
      }),
    ]),
  ]);

  it.each([
    ["GET p99.9<61ms", true, "GET: 60 ms (wanted < 61 ms)"],
    ["GET p99.9<60ms", false, "GET: 60 ms (wanted < 60 ms)"],
    [
      "GET p99.9<65ms@ci",
      false,
      "GET: 60 ms, 95 % interval [55, 70] ms (wanted < 65 ms for the whole interval)",
    ],
    ["GET p99.9<71ms@ci", true, "95 % interval [55, 70] ms"],
    ["GET p99.9>50ms@ci", true, "[55, 70]"],
    ["PUT ops/s>800", true, "PUT: 900.0 ops/s"],
    ["ops/s>800", false, "GET: 500.0 ops/s (wanted > 800 ops/s)"],
    ["errors<0.1%", true, "0.05 % errors (1 of 2000)"],
    ["errors<0.01%", false, "PUT: 0.05 % errors (1 of 2000)"],
    ["errors<1", false, "PUT: 1 errors"],
    ["client-bound=false", false, "PUT: the client's health was not measured"],
    ["DELETE p50<1ms", false, "no DELETE phase was measured"],
  ])("%s held: %s", (text, held, detail) => {
    const [outcome] = evaluateThresholds(run, [parsed(text)]);
    expect(outcome?.held).toBe(held);
    expect(outcome?.detail).toContain(detail);
  });

  it("treats an interval open above as not proven below a value", () => {
    const open = runFixture("r", [
      pointFixture({ clients: 1, samples: 256, objectSizeBytes: 4096 }, [
        phaseFixture("GET", 10, {
          latencyMs: { ...statsFrom(10), intervals: intervals(55, null) },
        }),
      ]),
    ]);
    const [outcome] = evaluateThresholds(open, [parsed("GET p99.9<1000ms@ci")]);
    expect(outcome).toMatchObject({ held: false });
    expect(outcome?.detail).toContain("open above");
  });
});
