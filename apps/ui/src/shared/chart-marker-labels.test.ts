import { describe, expect, it } from "vitest";
import { placeMarkerLabels } from "./chart-marker-labels.ts";

const plot = { left: 50, right: 450 };

describe("placeMarkerLabels", () => {
  it.each([
    [
      "apart: each on the top row, beside its line",
      [100, 300],
      [
        [0, 104, 0],
        [1, 304, 0],
      ],
    ],
    [
      "close together: stacked down the rows",
      [100, 120, 140],
      [
        [0, 104, 0],
        [1, 124, 1],
        [2, 144, 2],
      ],
    ],
    [
      "more close than rows: the last left out",
      [100, 110, 120, 130],
      [
        [0, 104, 0],
        [1, 114, 1],
        [2, 124, 2],
      ],
    ],
    ["near the right edge: before its line", [420], [[0, 336, 0]]],
    ["off the plot (zoomed out of view): none", [20, 480], []],
    [
      "back on the top row once the first ends",
      [100, 120, 190],
      [
        [0, 104, 0],
        [1, 124, 1],
        [2, 194, 0],
      ],
    ],
  ])("%s", (_name, pixels, expected) => {
    const placed = placeMarkerLabels(
      pixels.map((pixel) => ({ pixel, width: 80 })),
      plot,
      3,
    );
    expect(placed.map((label) => [label.index, label.left, label.row])).toEqual(expected);
    for (const label of placed) {
      expect(label.left).toBeGreaterThanOrEqual(plot.left);
      expect(label.right).toBeLessThanOrEqual(plot.right);
    }
  });

  it("places labels given in any order by where their lines are", () => {
    const placed = placeMarkerLabels(
      [
        { pixel: 300, width: 40 },
        { pixel: 100, width: 40 },
      ],
      plot,
      1,
    );
    expect(placed.map((label) => label.index)).toEqual([1, 0]);
  });
});
