import { parseRunSpec } from "@taillab/core";
import { describe, expect, it } from "vitest";
import { objectMemoryProblems } from "./object-memory.ts";

const GiB = 1024 ** 3;
const laptop = { memoryBytes: 16 * GiB, defaultWorkers: 3 };

function specOf(input: Record<string, unknown>) {
  const parsed = parseRunSpec({ clients: 8, samples: 16, ...input });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.spec;
}

describe("object sizes against the machine's memory", () => {
  it("1 MiB objects on a 16 GiB laptop: accepted", () => {
    expect(objectMemoryProblems(specOf({ objectSize: "1MiB" }), laptop)).toEqual([]);
  });

  it("5 GiB objects with 3 workers (20 GiB) on 16 GiB: refused, naming objectSize", () => {
    expect(objectMemoryProblems(specOf({ objectSize: "5GiB" }), laptop)).toEqual([
      {
        field: "objectSize",
        message:
          "objects of 5GiB need 20GiB of memory (the largest object, once shared and once in each of 3 workers); this machine has 16GiB",
      },
    ]);
  });

  it("4 GiB objects with one worker per client, 1 client: 8 GiB, accepted", () => {
    expect(
      objectMemoryProblems(specOf({ objectSize: "4GiB", clients: 1, samples: 1 }), laptop),
    ).toEqual([]);
  });

  it("a sweep: the point that does not fit is named by its index", () => {
    const problems = objectMemoryProblems(specOf({ objectSize: ["1KiB", "5GiB"] }), laptop);
    expect(problems.map((problem) => problem.field)).toEqual(["objectSize[1]"]);
  });

  it("a 1 TiB object of a multipart workload: refused, naming workload.sizes for a distribution", () => {
    const spec = specOf({
      objectSize: "1TiB",
      workload: { ops: "multipart:100", sizes: "uniform:1GiB:1TiB" },
    });
    expect(objectMemoryProblems(spec, laptop).map((problem) => problem.field)).toEqual([
      "workload.sizes",
    ]);
  });
});
