import type { PhaseSummary, PointSummary } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { pointsRan } from "./points-ran.ts";

const point = (requests: number, errors = 0, finished = true): PointSummary =>
  ({
    params: { clients: 1, samples: 10, objectSizeBytes: 4096 },
    finished,
    phases: [{ op: "GET", requests, errors } as PhaseSummary],
  }) as PointSummary;

describe("points ran", () => {
  it.each([
    ["stopped before its first request", [point(0, 0, false)], 0],
    ["stopped in its fourth point", [point(10), point(10), point(10), point(4, 0, false)], 4],
    ["whose only requests failed", [point(0, 3, false)], 1],
    ["complete", [point(10), point(10)], 2],
  ])("counts the points of a run %s", (_, points, ran) => {
    expect(pointsRan(points)).toBe(ran);
  });
});
