import type { RunSpecInput } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { runDetailFixture } from "../runs/test-support/run-fixtures.ts";
import { compareTableRows, rowKey, runLabels } from "./compare-model.ts";
import { comparePairedRuns, differingParams } from "./point-pairing.ts";

const run = (runId: string, spec: Partial<RunSpecInput>) =>
  runDetailFixture({ runId, spec: { samples: [32], ...spec } });

describe("comparePairedRuns", () => {
  it.each([
    {
      name: "single points at 2 and 8 clients",
      specs: [{ clients: [2] }, { clients: [8] }],
      pairings: ["baseline", "in-order"],
      rows: 3,
    },
    {
      name: "the same point",
      specs: [{ clients: [2] }, { clients: [2] }],
      pairings: ["baseline", "same-points"],
      rows: 3,
    },
    {
      name: "sweeps that overlap at one point keep exact matching",
      specs: [{ clients: [2, 4] }, { clients: [4, 8] }],
      pairings: ["baseline", "same-points"],
      rows: 9,
    },
    {
      name: "sweeps of other sizes, paired point by point",
      specs: [
        { clients: [1, 4], objectSize: ["4KiB"] },
        { clients: [1, 4], objectSize: ["1MiB"] },
      ],
      pairings: ["baseline", "in-order"],
      rows: 6,
    },
    {
      name: "a longer sweep: its extra points get rows of their own",
      specs: [{ clients: [2] }, { clients: [8, 16] }],
      pairings: ["baseline", "in-order"],
      rows: 6,
    },
  ])("$name", ({ specs, pairings, rows }) => {
    const summaries = specs.map((spec, index) => run(String(index), spec).summary);
    const paired = comparePairedRuns(summaries, 0);
    expect(paired.pairings).toEqual(pairings);
    expect(paired.comparison.rows).toHaveLength(rows);
  });

  it("compares a run at 8 clients with the baseline at 2, saying the clients differ", () => {
    const details = [run("two", { clients: [2] }), run("eight", { clients: [8] })];
    const runs = details.map((detail, index) => ({
      runId: detail.meta.id,
      label: runLabels(details)[index] ?? "",
      detail,
    }));
    const { comparison } = comparePairedRuns(
      details.map((detail) => detail.summary),
      0,
    );
    const get = comparison.rows.find((row) => row.op === "GET")!;
    expect(get.pointIndexes).toEqual([0, 0]);
    const rows = compareTableRows(comparison, runs, rowKey(get));
    expect(rows.map((row) => [row.present, row.params?.clients, row.differs])).toEqual([
      [true, 2, []],
      [true, 8, ["clients"]],
    ]);
    const eightGet = details[1]!.summary.points[0]!.phases.find((phase) => phase.op === "GET")!;
    expect(rows[1]!.figures.p999Ms.value).toBe(eightGet.latencyMs.p999);
    expect(rows[1]!.figures.p999Ms.ratio).not.toBeNull();
  });

  it("pairs against whichever run is the baseline", () => {
    const summaries = [run("a", { clients: [8] }).summary, run("b", { clients: [2] }).summary];
    expect(comparePairedRuns(summaries, 1).pairings).toEqual(["in-order", "baseline"]);
    const get = comparePairedRuns(summaries, 1).comparison.rows.find((row) => row.op === "GET")!;
    expect(get.params.clients).toBe(2);
  });
});

describe("differingParams", () => {
  it.each([
    [
      { clients: 2, samples: 10, objectSizeBytes: 4096 },
      { clients: 2, samples: 10, objectSizeBytes: 4096 },
      [],
    ],
    [
      { clients: 2, samples: 10, objectSizeBytes: 4096 },
      { clients: 8, samples: 10, objectSizeBytes: 4096 },
      ["clients"],
    ],
    [
      { clients: 2, samples: 10, objectSizeBytes: 4096 },
      { clients: 2, samples: 20, objectSizeBytes: 1 },
      ["samples", "objectSizeBytes"],
    ],
  ])("%j against %j differ in %j", (a, b, differs) => {
    expect(differingParams(a, b)).toEqual(differs);
  });
});
