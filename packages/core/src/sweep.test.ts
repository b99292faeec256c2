import { formatByteSize } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { expandSweep, pointLabel } from "./sweep.ts";

describe("expandSweep", () => {
  it("expands clients × sizes × samples in a stable order", () => {
    const points = expandSweep({ clients: [1, 4], objectSize: [1024, 2048], samples: [16, 32] });
    expect(points.map((point) => pointLabel(point, formatByteSize))).toEqual([
      "1-16-1KiB",
      "1-32-1KiB",
      "1-16-2KiB",
      "1-32-2KiB",
      "4-16-1KiB",
      "4-32-1KiB",
      "4-16-2KiB",
      "4-32-2KiB",
    ]);
  });

  it("sends rate × duration requests per phase in an open loop with a duration", () => {
    const openLoop = { rateHz: 500, arrivals: "poisson" as const, durationMs: 30_000, seed: 1 };
    expect(expandSweep({ clients: [8], objectSize: [4096], openLoop })).toEqual([
      { clients: 8, samples: 15_000, objectSizeBytes: 4096 },
    ]);
  });

  it("gives one point for single values", () => {
    expect(expandSweep({ clients: [8], objectSize: [32768], samples: [256] })).toEqual([
      { clients: 8, samples: 256, objectSizeBytes: 32768 },
    ]);
  });
});
