import { parseThreshold, type ThresholdOutcome } from "@taillab/core";
import { syntheticRun } from "@taillab/report/test-support";
import { describe, expect, it } from "vitest";
import { EXIT } from "./exit-codes.ts";
import { describeLeftovers, runVerdict } from "./run-verdict.ts";

const place = { bucket: "loadgen", keyPrefix: "taillab/r1/" };
const cleanup = {
  at: "2026-11-27T20:00:00.000Z",
  removed: { objects: 0, uploads: 0, buckets: 0 },
  objectsLeft: 0,
  uploadsLeft: 0,
  bucketsLeft: [],
  unchecked: [],
  errorsByCode: {},
};

describe("describeLeftovers", () => {
  it("names the codes that kept what is left", () => {
    expect(
      describeLeftovers(
        { ...cleanup, objectsLeft: 3, unchecked: ["uploads"], errorsByCode: { ECONNREFUSED: 4 } },
        place,
      ),
    ).toBe(
      "3 objects under taillab/r1/ in bucket loadgen, maybe uploads it could not list (ECONNREFUSED 4)",
    );
  });

  it("a cleanup that did not finish (kept as pending, no codes) never has an empty reason", () => {
    expect(describeLeftovers({ ...cleanup, unchecked: ["objects", "uploads"] }, place)).toBe(
      "maybe objects and uploads it could not list (its cleanup did not finish)",
    );
  });
});

describe("runVerdict with thresholds", () => {
  const { summary } = syntheticRun({ ops: ["GET"], requestsPerPhase: 100 });
  const phase = summary.points[0]!.phases[0]!;
  phase.errors = 1;
  phase.errorsByCode = { SlowDown: 1 };
  const judged = (text: string, held: boolean): ThresholdOutcome => {
    const parsed = parseThreshold(text);
    if (!parsed.ok) throw new Error(text);
    return { threshold: parsed.value, held, detail: "" };
  };

  it("exits 1 for request errors when no threshold judges them", () => {
    expect(runVerdict(summary, null, [judged("GET p50<60s", true)]).code).toBe(EXIT.requestErrors);
  });

  it("lets an errors threshold judge request errors instead", () => {
    expect(runVerdict(summary, null, [judged("errors<5%", true)])).toEqual({
      code: EXIT.ok,
      line: null,
    });
  });

  it("exits 99 naming the thresholds that failed, before request errors", () => {
    expect(
      runVerdict(summary, null, [judged("GET p50<1us", false), judged("errors<5%", true)]),
    ).toEqual({
      code: EXIT.thresholds,
      line: "exit 99: 1 threshold of 2 failed: GET p50<1us",
    });
  });
});
