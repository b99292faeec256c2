import { describe, expect, it } from "vitest";
import { P999_MIN_REQUESTS, p999IsMax, requestsFor } from "./tail-sample-size.ts";

describe("the requests a percentile needs", () => {
  it.each([
    [90, 10],
    [99, 100],
    [99.9, 1000],
    [99.99, 10_000],
  ])("p%s needs %i", (percentile, requests) => {
    expect(requestsFor(percentile)).toBe(requests);
  });

  it.each([
    [999, 0, true],
    [1000, 0, false],
    [1200, 300, true],
    [0, 0, false],
  ])("%i requests, %i failed: p99.9 is the max: %s", (requests, errors, isMax) => {
    expect(p999IsMax({ requests, errors })).toBe(isMax);
  });

  it("is 1 000 for p99.9", () => {
    expect(P999_MIN_REQUESTS).toBe(1000);
  });
});
