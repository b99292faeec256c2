import { describe, expect, it } from "vitest";
import { differingParams } from "./point-pairing.ts";

describe("differingParams", () => {
  it.each([
    [
      { clients: 2, samples: 10, objectSizeBytes: 4096 },
      { clients: 2, samples: 10, objectSizeBytes: 4096 },
      [],
    ],
    [
      { clients: 2, samples: 10, objectSizeBytes: 4096 },
      { clients: 8, samples: 10, objectSizeBytes: 4096 },
      ["clients"],
    ],
    [
      { clients: 2, samples: 10, objectSizeBytes: 4096 },
      { clients: 2, samples: 20, objectSizeBytes: 1 },
      ["samples", "objectSizeBytes"],
    ],
  ])("%j against %j differ in %j", (a, b, differs) => {
    expect(differingParams(a, b)).toEqual(differs);
  });
});
