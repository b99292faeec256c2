import { coded, englishOf } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { fixedTotalSweep } from "./fixed-total-sweep.ts";

describe("fixedTotalSweep", () => {
  it("writes the points of a size sweep at a fixed total, one a line", () => {
    expect(fixedTotalSweep({ total: "4MiB", sizes: "8KiB, 1MiB，2MiB", clients: "1" })).toEqual({
      ok: true,
      points: "1 × 512 × 8KiB\n1 × 4 × 1MiB\n1 × 2 × 2MiB",
    });
  });

  it("names each box that is wrong", () => {
    const result = fixedTotalSweep({ total: "lots", sizes: "8KiB, 9XB", clients: "0" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const english = (key: keyof typeof result.errors) => {
      const message = result.errors[key];
      return message ? englishOf(message) : null;
    };
    expect(english("total")).toMatch(/"lots" is not a size/);
    expect(english("sizes")).toMatch(/"9XB" has an unknown unit "XB"/);
    expect(english("clients")).toBe("expected at least 1 client");
    expect(result.errors.clients).toEqual(coded("countTooSmall", { unit: coded("unitClient") }));
    expect(fixedTotalSweep({ total: "1MiB", sizes: " , ", clients: "1" })).toMatchObject({
      ok: false,
      errors: { sizes: coded("sizesNone") },
    });
  });
});
