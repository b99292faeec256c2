import type { Operation, RunSummary } from "@taillab/api";
import { chartedOps } from "@taillab/core";
import { describe, expect, it } from "vitest";
import { runDetailFixture } from "./test-support/run-fixtures.ts";
import { sweepAxes, sweepAxisValues, sweepChartLines } from "./sweep-chart-data.ts";

const KiB = 1024;
const summaryOf = (spec: Record<string, unknown>, ops: Operation[] = ["PUT", "GET", "DELETE"]) =>
  runDetailFixture({ spec: { samples: [64], ...spec }, ops }).summary;

const sizeSweep = summaryOf({ clients: [4], objectSize: ["4KiB", "16KiB", "64KiB"] });
const clientSweep = summaryOf({ clients: [1, 4, 8], objectSize: ["16KiB"] });
const grid = summaryOf({ clients: [1, 4], objectSize: ["4KiB", "64KiB"] });
const single = summaryOf({ clients: [4], objectSize: ["4KiB"] });
/** The labs' size sweep: 4 MiB per point, samples falling as the size grows. */
const fixedTotal = summaryOf({
  points: [8, 64, 512, 2048].map((sizeKiB) => ({
    clients: 1,
    samples: 4096 / sizeKiB,
    objectSize: `${sizeKiB}KiB`,
  })),
});

describe("sweep chart data", () => {
  it.each<[string, RunSummary[], string[]]>([
    ["one point", [single], []],
    ["sizes swept", [sizeSweep], ["objectSize"]],
    ["clients swept", [clientSweep], ["concurrency"]],
    ["both swept", [grid], ["objectSize", "concurrency"]],
    ["a single run beside a sweep", [single, sizeSweep], ["objectSize"]],
  ])("%s: axes %j", (_name, summaries, axes) => {
    expect(sweepAxes(summaries.map((summary) => ({ label: "r", summary })))).toEqual(axes);
  });

  it.each<[string, Operation[], Operation[]]>([
    ["drops the cleanup beside other phases", ["PUT", "GET", "DELETE"], ["PUT", "GET"]],
    ["keeps a lone cleanup", ["DELETE"], ["DELETE"]],
  ])("%s", (_name, ops, charted) => {
    expect(chartedOps([summaryOf({ clients: [1], objectSize: ["4KiB"] }, ops)])).toEqual(charted);
  });

  it("draws one line per operation and fixed parameters, x ascending", () => {
    const lines = sweepChartLines([{ label: "grid", summary: grid }], "objectSize", [
      "throughputMBps",
    ]);
    expect(lines.map((line) => `${line.op} c${line.fixed.clients} g${line.group}`)).toEqual([
      "PUT c1 g0",
      "PUT c4 g1",
      "GET c1 g0",
      "GET c4 g1",
    ]);
    for (const line of lines) {
      expect(line.points.map((point) => point.x)).toEqual([4 * KiB, 64 * KiB]);
      for (const point of line.points) {
        const phase = grid.points[point.pointIndex]?.phases.find((entry) => entry.op === line.op);
        expect(point.y).toBe(phase?.throughputMBps);
      }
    }
  });

  it("draws a size sweep at a fixed total as one line per operation", () => {
    const lines = sweepChartLines([{ label: "sizes", summary: fixedTotal }], "objectSize", [
      "p50Ms",
    ]);
    expect(lines.map((line) => [line.op, line.fixed, line.totalBytes])).toEqual([
      ["PUT", { clients: 1 }, 4096 * KiB],
      ["GET", { clients: 1 }, 4096 * KiB],
    ]);
    expect(lines[0]!.points.map((point) => point.x)).toEqual(
      [8, 64, 512, 2048].map((k) => k * KiB),
    );
  });

  it("gives each run and metric its own lines, labelled by run", () => {
    const runs = [
      { label: "normal", summary: clientSweep },
      { label: "hedged", summary: clientSweep },
    ];
    const lines = sweepChartLines(runs, "concurrency", ["p99Ms", "p999Ms"]);
    expect(lines).toHaveLength(2 * 2 * 2);
    expect(new Set(lines.map((line) => line.key)).size).toBe(lines.length);
    expect(lines.filter((line) => line.runLabel === "hedged")).toHaveLength(4);
    const p999 = lines.find((line) => line.metric === "p999Ms" && line.op === "GET");
    expect(p999?.points.map((point) => point.y)).toEqual(
      clientSweep.points.map((point) => point.phases[1]?.latencyMs?.p999),
    );
  });

  it("draws one operation's lines when asked", () => {
    const lines = sweepChartLines(
      [{ label: "grid", summary: grid }],
      "concurrency",
      ["p99Ms"],
      "GET",
    );
    expect(lines.map((line) => line.op)).toEqual(["GET", "GET"]);
  });

  it("lists every x value any run has", () => {
    const runs = [
      { label: "a", summary: sizeSweep },
      { label: "b", summary: grid },
    ];
    expect(sweepAxisValues(runs, "objectSize")).toEqual([4 * KiB, 16 * KiB, 64 * KiB]);
    expect(sweepAxisValues(runs, "concurrency")).toEqual([1, 4]);
  });
});
