import { describe, expect, it } from "vitest";
import { mannWhitneyP, repetitionDifferenceSignificant } from "./repetition-difference.ts";

describe("Mann–Whitney's U over repetitions", () => {
  it.each([
    // Every one of the first above every one of the second: 2 of the C(8,4) = 70 orderings.
    [[5, 6, 7, 8], [1, 2, 3, 4], 2 / 70],
    [[1, 2, 3], [4, 5, 6], 2 / 20],
    // Interleaved: U = 8 of 16, the middle.
    [[1, 4, 5, 8], [2, 3, 6, 7], 1],
    // U = 6: P(U ≤ 6) = 24 of the 70 orderings, doubled.
    [[1, 3, 5, 7], [2, 4, 6, 8], 48 / 70],
  ])("p of %j against %j is %f", (first, second, p) => {
    expect(mannWhitneyP(first, second)).toBeCloseTo(p, 10);
  });

  it("agrees with the normal approximation where the counts grow large", () => {
    const first = Array.from({ length: 25 }, (_, i) => i * 2);
    const second = Array.from({ length: 25 }, (_, i) => i * 2 + 7);
    const p = mannWhitneyP(first, second);
    expect(p).toBeGreaterThan(0.01);
    expect(p).toBeLessThan(0.5);
  });

  it("judges only from 4 repetitions a side, at 5 %", () => {
    expect(repetitionDifferenceSignificant([1, 2, 3], [7, 8, 9])).toBeNull();
    expect(repetitionDifferenceSignificant([1, 2, 3, 4], [7, 8, 9, 10])).toBe(true);
    expect(repetitionDifferenceSignificant([1, 8, 3, 9], [7, 2, 4, 10])).toBe(false);
  });
});
