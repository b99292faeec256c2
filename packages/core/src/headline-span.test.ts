import type { PhaseSummary, PointSummary } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { headlineSpans } from "./headline-span.ts";

/** Only what headlineSpans reads of a phase; the rest of a summary is not its business. */
function phase(op: "PUT" | "GET", p50: number | null, p99: number, opsPerSec: number, errors = 0) {
  const latencyMs = p50 === null ? null : { p50, p99, p999: p99 * 2 };
  return { op, latencyMs, toolLatencyMs: null, opsPerSec, errors } as unknown as PhaseSummary;
}
const point = (...phases: PhaseSummary[]) => ({ phases }) as unknown as PointSummary;

describe("headlineSpans", () => {
  it("spans each operation over every point, not the first point only", () => {
    const spans = headlineSpans([
      point(phase("PUT", 1, 4, 900), phase("GET", 0.5, 2, 2000)),
      point(phase("PUT", 3, 40, 100), phase("GET", 2, 20, 300, 2)),
      point(phase("PUT", 2, 9, 400), phase("GET", 1, 5, 800)),
    ]);
    expect(spans).toEqual([
      {
        op: "PUT",
        points: 3,
        p50Ms: { low: 1, high: 3 },
        p99Ms: { low: 4, high: 40 },
        p999Ms: { low: 8, high: 80 },
        opsPerSec: { low: 100, high: 900 },
        errors: 0,
      },
      {
        op: "GET",
        points: 3,
        p50Ms: { low: 0.5, high: 2 },
        p99Ms: { low: 2, high: 20 },
        p999Ms: { low: 4, high: 40 },
        opsPerSec: { low: 300, high: 2000 },
        errors: 2,
      },
    ]);
  });

  it("leaves out a point where every request failed, but counts its errors", () => {
    const [put] = headlineSpans([
      point(phase("PUT", 1, 4, 900)),
      point(phase("PUT", null, 0, 0, 50)),
    ]);
    expect(put).toMatchObject({ points: 1, p99Ms: { low: 4, high: 4 }, errors: 50 });
    expect(put?.opsPerSec).toEqual({ low: 900, high: 900 });
  });

  it("has no figures where nothing answered, and nothing for a run with no points", () => {
    expect(headlineSpans([point(phase("GET", null, 0, 0, 3))])).toEqual([
      {
        op: "GET",
        points: 0,
        p50Ms: null,
        p99Ms: null,
        p999Ms: null,
        opsPerSec: { low: 0, high: 0 },
        errors: 3,
      },
    ]);
    expect(headlineSpans([])).toEqual([]);
  });
});
