import { describe, expect, it } from "vitest";
import { verticalMarker } from "./cdf-chart-data.ts";

describe("verticalMarker", () => {
  it("draws a marker from the bottom to the top of the axis", () => {
    expect(verticalMarker(12.5, { fractionMin: 0, fractionMax: 1 })).toEqual([
      { x: 12.5, y: 0 },
      { x: 12.5, y: 1 },
    ]);
  });
});
