import { formatPointS3bench, formatSweepTable } from "@taillab/report";
import { describe, expect, it } from "vitest";
import { runText } from "./run-text.ts";
import { runDetailFixture } from "./test-support/run-fixtures.ts";

const single = runDetailFixture().summary;
const sweep = runDetailFixture({ spec: { clients: [1, 4], samples: [32] } }).summary;

describe("runText", () => {
  it.each([
    ["one point: its s3bench blocks", single, 0, formatPointS3bench(single.points[0]!)],
    [
      "a sweep: the sweep table, then the chosen point",
      sweep,
      1,
      `${formatSweepTable(sweep)}\nclients 4, samples 32, object size 32KiB\n\n${formatPointS3bench(sweep.points[1]!)}`,
    ],
    ["a sweep without a chosen point: the table", sweep, 9, formatSweepTable(sweep)],
  ])("%s", (_name, summary, pointIndex, expected) => {
    expect(runText(summary, pointIndex)).toBe(expected);
  });

  it("reads like s3bench", () => {
    const text = runText(single, 0);
    expect(text).toContain("Results Summary for Write Operation(s)");
    expect(text).toContain("Read times 99th %ile:");
  });
});
