import { compareRuns } from "@taillab/core";
import { formatModeComparison, formatRunComparison } from "@taillab/report";
import { describe, expect, it } from "vitest";
import { runDetailFixture } from "../runs/test-support/run-fixtures.ts";
import { compareText } from "./compare-text.ts";

const normal = runDetailFixture({ runId: "n", name: "normal" });
const again = runDetailFixture({ runId: "a", name: "again", seed: 3 });
const hedged = runDetailFixture({ runId: "h", name: "hedged", mode: "hedged" });
const run = (detail: typeof normal) => ({ runId: detail.meta.id, label: detail.meta.name, detail });

describe("compareText", () => {
  it.each([
    ["same mode: the comparison table", [normal, again], 1, false],
    ["modes differ: the mode table too", [normal, hedged], 0, true],
  ])("%s", (_name, details, baselineIndex, withModes) => {
    const summaries = details.map((detail) => detail.summary);
    const table = formatRunComparison(
      compareRuns(summaries, baselineIndex),
      details.map((detail) => detail.meta.name),
    );
    expect(compareText(details.map(run), baselineIndex)).toBe(
      withModes ? `${table}\n${formatModeComparison(summaries)}` : table,
    );
  });

  it("names what a run paired in order differs in", () => {
    const two = runDetailFixture({ runId: "2", name: "two", spec: { clients: [2] } });
    const eight = runDetailFixture({ runId: "8", name: "eight", spec: { clients: [8] } });
    const text = compareText([run(two), run(eight)], 0);
    expect(text).toContain(
      "run eight paired in order with the baseline: differs in clients (8 vs 2)",
    );
    expect(text).not.toContain("–");
  });

  it("names the baseline", () => {
    expect(compareText([run(normal), run(hedged)], 1)).toContain("hedged (baseline)");
  });
});
