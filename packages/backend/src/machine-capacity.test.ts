import { parseRunSpec } from "@taillab/core";
import { describe, expect, it } from "vitest";
import { machineCapacityProblems, type MachineLimits } from "./machine-capacity.ts";

const GiB = 1024 ** 3;
/** A 16 GiB laptop without file, port or free-memory limits (those are tested below). */
const laptop: MachineLimits = {
  memoryBytes: 16 * GiB,
  freeMemoryBytes: 16 * GiB,
  defaultWorkers: 3,
  openFiles: null,
  ephemeralPorts: null,
};

function specOf(input: Record<string, unknown>) {
  const parsed = parseRunSpec({ clients: 8, samples: 16, ...input });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.spec;
}

describe("object sizes against the machine's memory", () => {
  const endpoints = [{ url: "http://127.0.0.1:9000" }];

  it("1 MiB objects on a 16 GiB laptop: accepted", () => {
    expect(machineCapacityProblems(specOf({ objectSize: "1MiB" }), laptop)).toEqual([]);
  });

  it("4 GiB × 4 samples on the embedded testbed, which keeps them in memory: refused, suggesting a testbed on disk", () => {
    const spec = specOf({ objectSize: "4GiB", clients: 1, samples: 4 });
    expect(machineCapacityProblems(spec, laptop)).toMatchObject([
      {
        field: "objectSize",
        code: "objectsNeedMemoryWithTestbed",
        message:
          "objects of 4GiB need 20GiB of memory (the largest object, and 16GiB of objects the embedded testbed keeps in memory); this machine has 16GiB: keep the objects on disk (taillab testbed --dir FOLDER, then --endpoint its URL) or use a real server",
      },
    ]);
  });

  it("the same against an endpoint: the engine's one 4 GiB buffer, accepted", () => {
    const spec = specOf({ objectSize: "4GiB", clients: 1, samples: 4, endpoints });
    expect(machineCapacityProblems(spec, laptop)).toEqual([]);
  });

  it("a point's objects are gone after its cleanup; without one, every point's stay", () => {
    const sweep = { objectSize: ["1GiB", "3GiB"], clients: 1, samples: 4 };
    // With cleanup: 3 GiB + 4 × 3 GiB. Without: 1 GiB × 4 more, kept from the first point.
    expect(machineCapacityProblems(specOf(sweep), laptop)).toEqual([]);
    const kept = specOf({ ...sweep, phases: ["write", "read"] });
    expect(machineCapacityProblems(kept, laptop)).toMatchObject([
      {
        field: "objectSize[1]",
        message: expect.stringMatching(/^objects of 3GiB need 19GiB of memory .* 16GiB of objects/),
      },
    ]);
  });

  it("verification: a stamped copy per client's PUT, 1 GiB × 20 clients refused", () => {
    const spec = { objectSize: "1GiB", clients: 20, samples: 20, endpoints };
    expect(machineCapacityProblems(specOf(spec), laptop)).toEqual([]);
    expect(machineCapacityProblems(specOf({ ...spec, verify: true }), laptop)).toMatchObject([
      {
        field: "objectSize",
        code: "objectsNeedMemory",
        message:
          "objects of 1GiB need 21GiB of memory (the largest object, and a stamped copy for each of 20 clients' PUTs); this machine has 16GiB",
      },
    ]);
  });

  it.each([
    ["get:100 keeps the 100 prepared objects", "get:100", []],
    ["put:100 adds one per request", "put:100", ["objectSize"]],
  ])("a mix on the embedded testbed: %s", (_name, ops, fields) => {
    const spec = specOf({
      objectSize: "100MiB",
      clients: 1,
      samples: 100,
      workload: { ops, prepareObjects: 100 },
    });
    expect(machineCapacityProblems(spec, laptop).map((problem) => problem.field)).toEqual(fields);
  });

  it("a sweep: the point that does not fit is named by its index", () => {
    const problems = machineCapacityProblems(
      specOf({ objectSize: ["1KiB", "5GiB"], endpoints, verify: true }),
      laptop,
    );
    expect(problems.map((problem) => problem.field)).toEqual(["objectSize[1]"]);
  });

  it("a 1 TiB object of a multipart workload: refused, naming workload.sizes for a distribution", () => {
    const spec = specOf({
      objectSize: "1TiB",
      workload: { ops: "multipart:100", sizes: "uniform:1GiB:1TiB" },
    });
    expect(machineCapacityProblems(spec, laptop).map((problem) => problem.field)).toEqual([
      "workload.sizes",
    ]);
  });
});

describe("clients against the machine's open files, ports and memory", () => {
  const clientsOf = (input: Record<string, unknown>) => specOf({ objectSize: "4KiB", ...input });
  /** This project's CI machine: ulimit -n 20 000, ports 32768-60999, 24 GiB. */
  const ci: MachineLimits = {
    memoryBytes: 24 * GiB,
    freeMemoryBytes: 20 * GiB,
    defaultWorkers: 1,
    openFiles: 20_000,
    ephemeralPorts: 28_232,
  };
  const endpoint = [{ url: "http://127.0.0.1:9000" }];

  it.each([
    ["1 000 clients on the embedded testbed", { clients: 1000, samples: 1000 }],
    ["9 000 clients on the embedded testbed", { clients: 9000, samples: 9000 }],
    [
      "10 000 clients against an endpoint",
      { clients: 10_000, samples: 10_000, endpoints: endpoint },
    ],
  ])("accepts %s", (_name, input) => {
    expect(machineCapacityProblems(clientsOf(input), ci)).toEqual([]);
  });

  it("refuses 10 000 clients on the embedded testbed, whose ends of the connections are here too", () => {
    expect(
      machineCapacityProblems(clientsOf({ clients: 10_000, samples: 10_000 }), ci),
    ).toMatchObject([
      {
        field: "clients",
        code: "clientsNeedFilesWithTestbed",
        message:
          "10000 clients need about 20256 open files here (10000 connections and the embedded testbed's end of each, in this process, plus 256), but this process may open 20000 (ulimit -n); use at most 9872 clients, run the testbed apart (taillab testbed) and give its endpoint, or raise the limit (ulimit -Hn)",
      },
    ]);
  });

  it("counts a backup's connection too, naming the list entry at fault", () => {
    const spec = clientsOf({
      clients: [10, 8000],
      samples: 8000,
      endpoints: [...endpoint, { url: "http://127.0.0.1:9001" }],
      mode: "hedged",
    });
    const [problem] = machineCapacityProblems(spec, ci);
    expect(problem?.field).toBe("clients[1]");
    expect(problem?.message).toMatch(
      /^8000 clients need about 32256 open files here \(32000 connections, plus 256\)/,
    );
    expect(problem?.message).toMatch(/use at most 4936 clients/);
  });

  it.each([
    [
      "ports",
      { openFiles: 1_000_000 },
      /^100000 clients need 100000 connections to each server, but this machine has 28232 local ports/,
    ],
    [
      "memory",
      { openFiles: 1_000_000, ephemeralPorts: 1_000_000, freeMemoryBytes: 4 * GiB },
      /^100000 clients need about 6\.1GiB of memory for their connections/,
    ],
  ])("refuses 100 000 clients for %s, in one line", (_name, limits, message) => {
    const problems = machineCapacityProblems(
      clientsOf({ clients: 100_000, samples: 100_000, endpoints: endpoint }),
      { ...ci, ...limits },
    );
    expect(problems).toMatchObject([{ field: "clients", message: expect.stringMatching(message) }]);
  });
});
