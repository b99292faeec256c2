import { describe, expect, it } from "vitest";
import { TEST_THEME } from "./test-support/chart-theme-fixture.ts";
import { axis } from "./chart-options.ts";

describe("a chart axis", () => {
  it("names every category (a bar per mode), however large its labels", () => {
    const ticks = (type: "category" | "linear") =>
      (axis(TEST_THEME, { type, title: "" }).ticks as { autoSkip?: boolean }).autoSkip;
    expect(ticks("category")).toBe(false);
    expect(ticks("linear")).toBeUndefined();
  });
});
