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

  it("names the baseline", () => {
    expect(compareText([run(normal), run(hedged)], 1)).toContain("hedged (baseline)");
  });
});
