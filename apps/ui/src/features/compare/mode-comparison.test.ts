import { compareRuns } from "@taillab/core";
import { describe, expect, it } from "vitest";
import { runDetailFixture } from "../runs/test-support/run-fixtures.ts";
import { differsByMode } from "@taillab/core";
import { modeComparison } from "./mode-comparison.ts";

const tied = runDetailFixture({ runId: "t", mode: "tied" });
const normal = runDetailFixture({ runId: "n", mode: "normal" });
const hedged = runDetailFixture({ runId: "h", mode: "hedged" });
const hedgedAgain = runDetailFixture({ runId: "h2", mode: "hedged", seed: 9 });

describe("mode comparison", () => {
  it.each([
    [[normal, normal], false],
    [[normal, hedged], true],
    [[tied, hedged, normal], true],
  ])("differs by mode: case %#", (details, differs) => {
    expect(differsByMode(details.map((detail) => detail.summary))).toBe(differs);
  });

  it("lists normal, hedged, tied in that order with each run's tail and cost", () => {
    const details = [tied, hedged, normal, hedgedAgain];
    const runs = details.map((detail) => ({
      runId: detail.meta.id,
      label: detail.meta.id,
      detail,
    }));
    const comparison = compareRuns(details.map((detail) => detail.summary));
    const getRow = comparison.rows.find((row) => row.op === "GET")!;
    const entries = modeComparison(runs, getRow);
    expect(entries.map((entry) => [entry.runId, entry.mode])).toEqual([
      ["n", "normal"],
      ["h", "hedged"],
      ["h2", "hedged"],
      ["t", "tied"],
    ]);
    const phaseOf = (runId: string) =>
      details.find((detail) => detail.meta.id === runId)!.summary.points[0]!.phases[1]!;
    for (const entry of entries) {
      const phase = phaseOf(entry.runId);
      expect(entry.p999Ms).toBe(phase.latencyMs!.p999);
      expect(entry.extraPct).toBe(phase.hedge?.extraPct ?? 0);
      expect(entry.wastedBytes).toBe(phase.hedge?.wastedBytes ?? 0);
    }
    expect(entries[0]).toMatchObject({ extraPct: 0, wastedBytes: 0, wonByBackup: 0 });
    expect(entries[1]!.extraPct).toBeGreaterThan(0);
  });

  it("leaves out a run without the compared point", () => {
    // The runs share the 4 KiB point, so they are matched by point, not paired in order.
    const sweep = runDetailFixture({ runId: "n", spec: { objectSize: ["32KiB", "4KiB"] } });
    const small = runDetailFixture({ runId: "s", mode: "hedged", spec: { objectSize: ["4KiB"] } });
    const details = [sweep, small];
    const runs = details.map((detail) => ({ runId: detail.meta.id, label: "x", detail }));
    const comparison = compareRuns(details.map((detail) => detail.summary));
    expect(modeComparison(runs, comparison.rows[0]!).map((entry) => entry.runId)).toEqual(["n"]);
  });

  it("puts tied client and server cancellation side by side with the testbed's work", () => {
    const work = (runId: string, mode: "tied" | "tied-server", served: number) => {
      const detail = runDetailFixture({ runId, mode });
      detail.summary.testbed = [
        { url: "u", received: served, completed: served, aborted: 0, served, tiesDropped: 0 },
      ];
      return detail;
    };
    const details = [work("s", "tied-server", 1010), work("c", "tied", 1800), normal];
    const runs = details.map((detail) => ({ runId: detail.meta.id, label: "x", detail }));
    const comparison = compareRuns(details.map((detail) => detail.summary));
    const entries = modeComparison(
      runs,
      comparison.rows.find((row) => row.op === "GET")!,
    );
    expect(entries.map((entry) => [entry.mode, entry.served])).toEqual([
      ["normal", null],
      ["tied", 1800],
      ["tied-server", 1010],
    ]);
  });
});
