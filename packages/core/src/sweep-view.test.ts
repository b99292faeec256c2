import { RunSpecSchema } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { expandSweep } from "./sweep.ts";
import { sweepView } from "./sweep-view.ts";
import { phaseFixture, pointFixture, runFixture } from "./test-support/run-summary-fixture.ts";

/** A lab sweep: clients {1, 4, 8} × sizes {1, 4, 16} KiB × 256 samples, with known figures. */
function labSweep() {
  const spec = RunSpecSchema.parse({
    clients: [1, 4, 8],
    samples: [256],
    objectSize: ["1KiB", "4KiB", "16KiB"],
  });
  const points = expandSweep(spec).map((params) =>
    pointFixture(params, [
      phaseFixture("PUT", params.objectSizeBytes / 1024 + params.clients, {
        throughputMBps: (params.clients * params.objectSizeBytes) / 1024,
        opsPerSec: params.clients * 100,
      }),
      phaseFixture("GET", 1, { throughputMBps: 2, opsPerSec: 200 }),
      phaseFixture("DELETE", 1),
    ]),
  );
  return runFixture("sweep", points, { spec });
}

const FIXED_TOTAL_SIZES = [8192, 32768, 131072, 524288, 2097152];

/** The labs' size sweep at a fixed 4 MiB total, at each client count given. */
function fixedTotalSweep(...clientCounts: number[]) {
  const points = clientCounts.flatMap((clients) =>
    FIXED_TOTAL_SIZES.map((objectSizeBytes) =>
      pointFixture({ clients, samples: (4 * 1024 * 1024) / objectSizeBytes, objectSizeBytes }, [
        phaseFixture("PUT", objectSizeBytes / 1024),
        phaseFixture("GET", objectSizeBytes / 2048),
      ]),
    ),
  );
  return runFixture("fixed-total", points);
}

describe("sweepView", () => {
  const view = sweepView(labSweep(), { ops: ["PUT", "GET"] });

  it("lists the swept values and the operations asked for", () => {
    expect(view.objectSizes).toEqual([1024, 4096, 16384]);
    expect(view.concurrencies).toEqual([1, 4, 8]);
    expect(view.ops).toEqual(["PUT", "GET"]);
  });

  it("draws one line per clients × samples against object size", () => {
    const lines = view.bySize.throughputMBps.filter((line) => line.op === "PUT");
    expect(lines.map((line) => line.key)).toEqual(["PUT c1 n256", "PUT c4 n256", "PUT c8 n256"]);
    expect(lines[1]!.fixed).toEqual({ clients: 4, samples: 256 });
    expect(lines[1]!.points.map((point) => [point.x, point.y])).toEqual([
      [1024, 4],
      [4096, 16],
      [16384, 64],
    ]);
  });

  it("draws one line per size × samples against concurrency", () => {
    const lines = view.byConcurrency.p50Ms.filter((line) => line.op === "PUT");
    expect(lines.map((line) => line.key)).toEqual([
      "PUT n256 s1024",
      "PUT n256 s4096",
      "PUT n256 s16384",
    ]);
    expect(lines[2]!.points.map((point) => [point.x, point.y])).toEqual([
      [1, 17],
      [4, 20],
      [8, 24],
    ]);
    expect(lines[2]!.points.map((point) => point.pointIndex)).toEqual([2, 5, 8]);
  });

  it.each([
    ["opsPerSec", 400],
    ["p99Ms", 15],
    ["p999Ms", 30],
  ] as const)("reads %s from each phase", (metric, expected) => {
    const line = view.bySize[metric].find((candidate) => candidate.key === "PUT c4 n256")!;
    expect(line.points[0]!.y).toBe(expected);
  });

  it("draws a size sweep at a fixed total as one line per operation", () => {
    const view = sweepView(fixedTotalSweep(1), { ops: ["PUT", "GET"] });
    const lines = view.bySize.throughputMBps;
    expect(lines.map((line) => line.key)).toEqual(["PUT c1", "GET c1"]);
    expect(lines[0]!.fixed).toEqual({ clients: 1 });
    expect(lines[0]!.totalBytes).toBe(4 * 1024 * 1024);
    expect(lines[0]!.points.map((point) => point.x)).toEqual(FIXED_TOTAL_SIZES);
  });

  it("splits a fixed-total sweep by what varies on its own, and keeps the total", () => {
    const view = sweepView(fixedTotalSweep(1, 4), { ops: ["PUT"] });
    expect(view.bySize.p50Ms.map((line) => [line.key, line.totalBytes])).toEqual([
      ["PUT c1", 4 * 1024 * 1024],
      ["PUT c4", 4 * 1024 * 1024],
    ]);
    // Against concurrency, the sizes are lines and their samples move with them.
    expect(view.byConcurrency.p50Ms.map((line) => line.key)).toEqual(
      FIXED_TOTAL_SIZES.map((size) => `PUT n${(4 * 1024 * 1024) / size} s${size}`),
    );
  });

  it("leaves out operations not asked for, and keeps all by default", () => {
    expect(view.bySize.p50Ms.some((line) => line.op === "DELETE")).toBe(false);
    expect(sweepView(labSweep()).ops).toEqual(["PUT", "GET", "DELETE"]);
  });
});
