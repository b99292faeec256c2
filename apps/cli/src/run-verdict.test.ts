import { describe, expect, it } from "vitest";
import { describeLeftovers } from "./run-verdict.ts";

const place = { bucket: "loadgen", keyPrefix: "taillab/r1/" };
const cleanup = {
  at: "2026-11-27T20:00:00.000Z",
  removed: { objects: 0, uploads: 0, buckets: 0 },
  objectsLeft: 0,
  uploadsLeft: 0,
  bucketsLeft: [],
  unchecked: [],
  errorsByCode: {},
};

describe("describeLeftovers", () => {
  it("names the codes that kept what is left", () => {
    expect(
      describeLeftovers(
        { ...cleanup, objectsLeft: 3, unchecked: ["uploads"], errorsByCode: { ECONNREFUSED: 4 } },
        place,
      ),
    ).toBe(
      "3 objects under taillab/r1/ in bucket loadgen, maybe uploads it could not list (ECONNREFUSED 4)",
    );
  });

  it("a cleanup that did not finish (kept as pending, no codes) never has an empty reason", () => {
    expect(describeLeftovers({ ...cleanup, unchecked: ["objects", "uploads"] }, place)).toBe(
      "maybe objects and uploads it could not list (its cleanup did not finish)",
    );
  });
});
