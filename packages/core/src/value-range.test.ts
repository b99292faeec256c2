import { describe, expect, it } from "vitest";
import { valueRange } from "./value-range.ts";

describe("valueRange", () => {
  it("is null for no values", () => {
    expect(valueRange([])).toBeNull();
  });

  it("finds the smallest and largest in any order", () => {
    expect(valueRange([3, -1, 7, 7, 0])).toEqual({ min: -1, max: 7 });
    expect(valueRange([5])).toEqual({ min: 5, max: 5 });
  });

  it("takes the extent of a list far longer than a function's arguments can be", () => {
    const values = Array.from({ length: 1_000_000 }, (_, index) => index % 1000);
    expect(valueRange(values)).toEqual({ min: 0, max: 999 });
  });
});
