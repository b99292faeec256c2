import { describe, expect, it } from "vitest";
import { compareRuns } from "./run-comparison.ts";
import {
  phaseFixture,
  pointFixture,
  runFixture,
  statsFrom,
} from "./test-support/run-summary-fixture.ts";

const small = { clients: 1, samples: 256, objectSizeBytes: 4096 };
const large = { clients: 1, samples: 256, objectSizeBytes: 65536 };
const many = { clients: 8, samples: 256, objectSizeBytes: 4096 };

const normal = runFixture("normal", [
  pointFixture(small, [phaseFixture("PUT", 10), phaseFixture("GET", 4)]),
  pointFixture(large, [phaseFixture("PUT", 20)]),
]);
const hedged = runFixture(
  "hedged",
  [
    // Listed in another order, and without the large point: alignment is by parameters.
    pointFixture(many, [phaseFixture("PUT", 30)]),
    pointFixture(small, [
      phaseFixture("GET", 2, {
        throughputMBps: 1.5,
        hedge: {
          delayMs: 3,
          budgetPct: 10,
          attempts: 270,
          extraPct: 5.5,
          cancelled: 12,
          wastedBytes: 40960,
          wonByBackup: 9,
          sameReplica: 0,
        },
      }),
      phaseFixture("PUT", 8, { errors: 2 }),
    ]),
  ],
  { mode: "hedged" },
);

describe("compareRuns", () => {
  const comparison = compareRuns([normal, hedged], 0);

  it("orders rows by the baseline, then rows only other runs have", () => {
    expect(comparison.runIds).toEqual(["normal", "hedged"]);
    expect(
      comparison.rows.map((row) => [row.params.objectSizeBytes, row.params.clients, row.op]),
    ).toEqual([
      [4096, 1, "PUT"],
      [4096, 1, "GET"],
      [65536, 1, "PUT"],
      [4096, 8, "PUT"],
    ]);
    expect(comparison.rows.map((row) => row.pointIndexes)).toEqual([
      [0, 1],
      [0, 1],
      [1, null],
      [null, 0],
    ]);
  });

  it.each([
    // row, metric, run, value, delta, delta %
    [0, "p50Ms", 1, 8, -2, -20],
    [0, "p99Ms", 1, 24, -6, -20],
    [0, "maxMs", 1, 160, -40, -20],
    [0, "ttfbP50Ms", 1, 4, -1, -20],
    [0, "errors", 1, 2, 2, null],
    [1, "p9999Ms", 1, 20, -20, -50],
    [1, "throughputMBps", 1, 1.5, 0.5, 50],
    [1, "hedgeExtraPct", 1, 5.5, 5.5, null],
    [1, "hedgeWastedBytes", 1, 40960, 40960, null],
    [0, "p50Ms", 0, 10, 0, 0],
  ] as const)("row %d %s of run %d: %d (Δ %d, %d %%)", (row, metric, run, value, delta, pct) => {
    const cell = comparison.rows[row]!.cells[metric][run]!;
    expect(cell.value).toBeCloseTo(value, 9);
    expect(cell.delta).toBeCloseTo(delta, 9);
    if (pct === null) expect(cell.deltaPct).toBeNull();
    else expect(cell.deltaPct).toBeCloseTo(pct, 9);
  });

  it("leaves missing cells null", () => {
    expect(comparison.rows[2]!.cells.p99Ms).toEqual([
      { value: 60, delta: 0, deltaPct: 0, significant: null, significanceBy: null },
      { value: null, delta: null, deltaPct: null, significant: null, significanceBy: null },
    ]);
    expect(comparison.rows[3]!.cells.p99Ms).toEqual([
      { value: null, delta: null, deltaPct: null, significant: null, significanceBy: null },
      { value: 90, delta: null, deltaPct: null, significant: null, significanceBy: null },
    ]);
  });

  it("compares against any baseline", () => {
    const reversed = compareRuns([normal, hedged], 1);
    expect(reversed.rows[0]!.op).toBe("PUT");
    expect(reversed.rows[0]!.params.clients).toBe(8);
    const put = reversed.rows.find(
      (row) => row.op === "PUT" && row.params.clients === 1 && row.params.objectSizeBytes === 4096,
    )!;
    expect(put.cells.p50Ms[0]).toEqual({
      value: 10,
      delta: 2,
      deltaPct: 25,
      significant: null,
      significanceBy: null,
    });
  });

  it("rejects an empty list and a baseline out of range", () => {
    expect(() => compareRuns([])).toThrow(/no runs/);
    expect(() => compareRuns([normal], 1)).toThrow(/baseline index 1 is not one of the 1 runs/);
  });
});

describe("compareRuns pairing", () => {
  const at = (runId: string, ...points: (typeof small)[]) =>
    runFixture(
      runId,
      points.map((params, index) =>
        pointFixture(params, [phaseFixture("GET", 10 * (index + 1) * params.clients)]),
      ),
    );
  const two = { clients: 2, samples: 256, objectSizeBytes: 4096 };
  const eight = { ...two, clients: 8 };
  const sixteen = { ...two, clients: 16 };

  it.each([
    {
      name: "exact: a shared point keeps matching by parameters",
      runs: [at("a", two, eight), at("b", eight, sixteen)],
      pairings: [
        { pairing: "baseline", differingParams: [] },
        { pairing: "same-points", differingParams: [] },
      ],
      pointIndexes: [
        [0, null],
        [1, 0],
        [null, 1],
      ],
      rowClients: [2, 8, 16],
    },
    {
      name: "in order: no shared point, 8 clients against 2",
      runs: [at("a", two), at("b", eight)],
      pairings: [
        { pairing: "baseline", differingParams: [] },
        {
          pairing: "in-order",
          differingParams: [{ param: "clients", values: [8], baselineValues: [2] }],
        },
      ],
      pointIndexes: [[0, 0]],
      rowClients: [2],
    },
    {
      name: "in order: a longer run's extra point gets a row of its own",
      runs: [at("a", two), at("b", eight, { ...sixteen, objectSizeBytes: 65536 })],
      pairings: [
        { pairing: "baseline", differingParams: [] },
        {
          pairing: "in-order",
          differingParams: [{ param: "clients", values: [8], baselineValues: [2] }],
        },
      ],
      pointIndexes: [
        [0, 0],
        [null, 1],
      ],
      rowClients: [2, 16],
    },
    {
      name: "no baseline points: nothing to pair with",
      runs: [at("a"), at("b", eight)],
      pairings: [
        { pairing: "baseline", differingParams: [] },
        { pairing: "same-points", differingParams: [] },
      ],
      pointIndexes: [[null, 0]],
      rowClients: [8],
    },
  ])("$name", ({ runs, pairings, pointIndexes, rowClients }) => {
    const comparison = compareRuns(runs, 0);
    expect(comparison.pairings).toEqual(pairings);
    expect(comparison.rows.map((row) => row.pointIndexes)).toEqual(pointIndexes);
    expect(comparison.rows.map((row) => row.params.clients)).toEqual(rowClients);
  });

  it("gives each run its own figures when paired in order, against any baseline", () => {
    const comparison = compareRuns([at("a", eight), at("b", two)], 1);
    expect(comparison.pairings.map((entry) => entry.pairing)).toEqual(["in-order", "baseline"]);
    expect(comparison.pairings[0]!.differingParams).toEqual([
      { param: "clients", values: [8], baselineValues: [2] },
    ]);
    expect(comparison.rows[0]!.cells.p50Ms).toEqual([
      { value: 80, delta: 60, deltaPct: 300, significant: null, significanceBy: null },
      { value: 20, delta: 0, deltaPct: 0, significant: null, significanceBy: null },
    ]);
  });
});

describe("compareRuns significance", () => {
  /** A GET phase whose p99 is `p99` with its interval [lo, hi]; the other levels alike. */
  function withP99(runId: string, p99: number, lo: number | null, hi: number | null) {
    const stats = { ...statsFrom(p99 / 3), p99 };
    const interval = { lo, hi };
    const byLevel = { p25: interval, p50: interval, p75: interval, p90: interval } as const;
    return runFixture(runId, [
      pointFixture(small, [
        phaseFixture("GET", p99 / 3, {
          latencyMs: {
            ...stats,
            intervals: {
              confidence: 0.95,
              count: 256,
              precisionPct: 0.1,
              byLevel: { ...byLevel, p99: interval, p999: interval, p9999: interval },
            },
          },
        }),
      ]),
    ]);
  }

  it.each([
    ["intervals apart: significant", withP99("b", 30, 25, 35), true],
    ["intervals overlapping: not significant", withP99("b", 22, 19, 26), false],
    [
      "an interval open above reaching the baseline's: not significant",
      withP99("b", 40, 24, null),
      false,
    ],
    [
      "a run without intervals: not judged",
      runFixture("b", [pointFixture(small, [phaseFixture("GET", 3)])]),
      null,
    ],
  ])("%s", (_case, other, significant) => {
    const comparison = compareRuns([withP99("a", 20, 18, 24), other]);
    const [baseline, cell] = comparison.rows[0]!.cells.p99Ms;
    expect(baseline?.significant).toBeNull();
    expect(cell?.significant).toBe(significant);
    // Figures other than percentiles are never judged.
    expect(comparison.rows[0]!.cells.opsPerSec[1]?.significant).toBeNull();
  });
});

describe("compareRuns judges repeated points by their repetitions' spread", () => {
  const point = { clients: 1, samples: 256, objectSizeBytes: 4096 };
  /** A run whose point ran once per p50 given, each repetition's GET with its own figures. */
  function repeated(runId: string, p50s: number[]) {
    const phases = p50s.map((p50) => phaseFixture("GET", p50));
    return runFixture(runId, [
      {
        ...pointFixture(point, [phaseFixture("GET", p50s[0] ?? 1)]),
        repetitions: phases.map((phase) => ({ phases: [phase] })),
      },
    ]);
  }

  it.each([
    ["every repetition slower: significant", [20, 21, 22, 23], true],
    ["repetitions interleaved: not significant", [10.5, 11.5, 12.5, 13.5], false],
  ])("%s", (_case, otherP50s, significant) => {
    const comparison = compareRuns([repeated("a", [10, 11, 12, 13]), repeated("b", otherP50s)]);
    const cell = comparison.rows[0]!.cells.p99Ms[1];
    expect(cell).toMatchObject({ significant, significanceBy: "repetitions" });
  });

  it("falls back to the intervals below 4 repetitions a side", () => {
    const comparison = compareRuns([repeated("a", [10, 11, 12]), repeated("b", [20, 21, 22])]);
    // The fixture's figures carry no intervals: nothing to judge by.
    expect(comparison.rows[0]!.cells.p99Ms[1]).toMatchObject({
      significant: null,
      significanceBy: null,
    });
  });
});
