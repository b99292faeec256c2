import type { RunDetail, RunSpecInput } from "@taillab/api";
import { compareRuns } from "@taillab/core";
import { describe, expect, it } from "vitest";
import { runDetailFixture } from "../runs/test-support/run-fixtures.ts";
import {
  baselineChoices,
  allPointsRows,
  compareTableRows,
  defaultBaseline,
  defaultRowKey,
  rowKey,
  runLabels,
  type ComparedRun,
} from "./compare-model.ts";

const normal = runDetailFixture({ runId: "n", name: "normal", medianUs: 6000 });
const hedged = runDetailFixture({ runId: "h", name: "hedged", mode: "hedged", medianUs: 3000 });
const tied = runDetailFixture({ runId: "t", name: "tied", mode: "tied", medianUs: 9000 });

const compared = (details: RunDetail[]): ComparedRun[] => {
  const labels = runLabels(details);
  return details.map((detail, index) => ({
    runId: detail.meta.id,
    label: labels[index] ?? "",
    detail,
  }));
};

describe("compare model", () => {
  it.each([
    [
      ["a", "b", "c"],
      ["a", "b", "c"],
    ],
    [
      ["a", "a", "b"],
      ["a (#1)", "a (#2)", "b"],
    ],
    [
      ["", "b"],
      ["n", "b"],
    ],
  ])("labels runs %j as %j", (names, labels) => {
    const details = names.map((name, index) =>
      index === 0 ? { ...normal, meta: { ...normal.meta, name } } : runDetailFixture({ name }),
    );
    expect(runLabels(details)).toEqual(labels);
  });

  it.each([
    [["PUT", "GET", "DELETE"], "GET"],
    [["PUT", "DELETE"], "PUT"],
    [["DELETE"], "DELETE"],
  ] as const)("opens %j on %s", (ops, op) => {
    const detail = runDetailFixture({ ops: [...ops], spec: { samples: [16] } });
    expect(defaultRowKey(compareRuns([detail.summary]))).toBe(`8-16-32768-${op}`);
  });

  it.each([
    [["hedged", "normal", "tied"], "1"],
    [["hedged", "tied"], "0"],
    [[], null],
  ] as const)("takes the first normal run of %j as the baseline", (modes, baseline) => {
    expect(defaultBaseline(modes.map((mode, index) => ({ runId: String(index), mode })))).toBe(
      baseline,
    );
  });

  it("gives each run its figures, ratios to the baseline and verdicts", () => {
    const runs = compared([normal, hedged, tied]);
    const comparison = compareRuns(
      runs.map((run) => run.detail.summary),
      0,
    );
    const key = defaultRowKey(comparison) as string;
    const rows = compareTableRows(comparison, runs, key);
    const get = (detail: RunDetail) =>
      detail.summary.points[0]!.phases.find((phase) => phase.op === "GET")!;
    expect(rows.map((row) => [row.runId, row.mode, row.isBaseline, row.present])).toEqual([
      ["n", "normal", true, true],
      ["h", "hedged", false, true],
      ["t", "tied", false, true],
    ]);
    expect(rows[0]!.figures.p999Ms).toEqual({
      value: get(normal).latencyMs!.p999,
      ratio: 1,
      verdict: null,
      significant: null,
      significanceBy: null,
    });
    const p50 = rows[1]!.figures.p50Ms;
    expect(p50.value).toBe(get(hedged).latencyMs!.p50);
    expect(p50.ratio).toBeCloseTo(get(hedged).latencyMs!.p50 / get(normal).latencyMs!.p50, 9);
    expect(p50.verdict).toBe("better");
    expect(typeof p50.significant).toBe("boolean");
    expect(p50.significanceBy).toBe("intervals");
    expect(rows[2]!.figures.p50Ms.verdict).toBe("worse");
    // Throughput: higher is better.
    expect(rows[1]!.figures.opsPerSec.verdict).toBe(
      get(hedged).opsPerSec > get(normal).opsPerSec ? "better" : "worse",
    );
  });

  it("gives DELETEs of runs that differ by mode ratios but no verdict: they are never hedged", () => {
    const withCleanup = (detail: RunDetail, mode: "normal" | "hedged", medianUs: number) =>
      runDetailFixture({ runId: detail.meta.id, mode, medianUs, ops: ["GET", "DELETE"] });
    const runs = compared([
      withCleanup(normal, "normal", 6000),
      withCleanup(hedged, "hedged", 3000),
    ]);
    const comparison = compareRuns(
      runs.map((run) => run.detail.summary),
      0,
    );
    const deletes = comparison.rows.find((row) => row.op === "DELETE")!;
    const rows = compareTableRows(comparison, runs, rowKey(deletes));
    expect(rows[1]!.figures.p50Ms.ratio).toBeCloseTo(0.5, 1);
    expect(rows[1]!.figures.p50Ms.verdict).toBeNull();
    const all = allPointsRows(comparison, runs, "p50Ms");
    expect(all.map((row) => [row.op, row.figures[1]!.verdict])).toEqual([
      ["GET", "better"],
      ["DELETE", null],
    ]);
    // Between two normal runs (another server, say) a DELETE's change is a change.
    const twoNormal = compared([
      withCleanup(normal, "normal", 6000),
      withCleanup(tied, "normal", 3000),
    ]);
    const plain = compareRuns(
      twoNormal.map((run) => run.detail.summary),
      0,
    );
    expect(allPointsRows(plain, twoNormal, "p50Ms").at(-1)!.figures[1]!.verdict).toBe("better");
  });

  it("marks a run that lacks the compared point", () => {
    // The runs share the 4 KiB point, so they are matched by point, not paired in order.
    const sweep = runDetailFixture({ runId: "w", spec: { objectSize: ["32KiB", "4KiB"] } });
    const other = runDetailFixture({ runId: "o", spec: { objectSize: ["4KiB"] } });
    const runs = compared([sweep, other]);
    const comparison = compareRuns(runs.map((run) => run.detail.summary));
    const rows = compareTableRows(comparison, runs, rowKey(comparison.rows[0]!));
    expect(rows.map((row) => row.present)).toEqual([true, false]);
    expect(rows[1]!.figures.p999Ms).toEqual({
      value: null,
      ratio: null,
      verdict: null,
      significant: null,
      significanceBy: null,
    });
  });
});

describe("compareTableRows of runs paired in order", () => {
  const run = (runId: string, spec: Partial<RunSpecInput>) =>
    runDetailFixture({ runId, spec: { samples: [32], ...spec } });

  it("compares a run at 8 clients with the baseline at 2, saying the clients differ", () => {
    const details = [run("two", { clients: [2] }), run("eight", { clients: [8] })];
    const comparison = compareRuns(
      details.map((detail) => detail.summary),
      0,
    );
    const get = comparison.rows.find((row) => row.op === "GET")!;
    expect(get.pointIndexes).toEqual([0, 0]);
    const rows = compareTableRows(comparison, compared(details), rowKey(get));
    expect(rows.map((row) => [row.present, row.params?.clients, row.differs])).toEqual([
      [true, 2, []],
      [true, 8, ["clients"]],
    ]);
    const eightGet = details[1]!.summary.points[0]!.phases.find((phase) => phase.op === "GET")!;
    expect(rows[1]!.figures.p999Ms.value).toBe(eightGet.latencyMs!.p999);
    expect(rows[1]!.figures.p999Ms.ratio).not.toBeNull();
  });

  it("keys rows by the baseline's point, whichever run it is", () => {
    const summaries = [run("a", { clients: [8] }).summary, run("b", { clients: [2] }).summary];
    const get = compareRuns(summaries, 1).rows.find((row) => row.op === "GET")!;
    expect(get.params.clients).toBe(2);
  });
});

describe("baselineChoices", () => {
  it("offers the compared runs newest first, whatever order they were ticked in", () => {
    const run = (runId: string, createdAt: string) => ({
      runId,
      label: runId,
      detail: runDetailFixture({ runId, createdAt }),
    });
    const ticked = [
      run("b", "2025-03-02T09:00:00.000Z"),
      run("c", "2025-03-03T09:00:00.000Z"),
      run("a", "2025-03-01T09:00:00.000Z"),
    ];
    expect(baselineChoices(ticked).map((choice) => choice.runId)).toEqual(["c", "b", "a"]);
    expect(ticked.map((choice) => choice.runId)).toEqual(["b", "c", "a"]);
  });
});
