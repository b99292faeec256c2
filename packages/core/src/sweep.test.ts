import { describe, expect, it } from "vitest";
import { expandSweep, fixedTotalPoints } from "./sweep.ts";

describe("expandSweep", () => {
  it("expands clients × sizes × samples in a stable order", () => {
    const points = expandSweep({ clients: [1, 4], objectSize: [1024, 2048], samples: [16, 32] });
    const label = (point: (typeof points)[number]) =>
      `${point.clients}-${point.samples}-${point.objectSizeBytes}`;
    expect(points.map(label)).toEqual([
      "1-16-1024",
      "1-32-1024",
      "1-16-2048",
      "1-32-2048",
      "4-16-1024",
      "4-32-1024",
      "4-16-2048",
      "4-32-2048",
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

describe("fixedTotalPoints", () => {
  it("moves the same total at every size, as the labs' 4 MiB sweep", () => {
    const KiB = 1024;
    expect(fixedTotalPoints(4096 * KiB, [8 * KiB, 512 * KiB, 2048 * KiB], 1)).toEqual([
      { clients: 1, samples: 512, objectSizeBytes: 8 * KiB },
      { clients: 1, samples: 8, objectSizeBytes: 512 * KiB },
      { clients: 1, samples: 2, objectSizeBytes: 2048 * KiB },
    ]);
  });

  it("rounds an uneven share, and gives every client a request", () => {
    expect(fixedTotalPoints(1000, [300, 900], 4).map((point) => point.samples)).toEqual([4, 4]);
    expect(fixedTotalPoints(10_000, [300], 1)[0]?.samples).toBe(33);
  });
});
