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
  it("1 MiB objects on a 16 GiB laptop: accepted", () => {
    expect(machineCapacityProblems(specOf({ objectSize: "1MiB" }), laptop)).toEqual([]);
  });

  it("5 GiB objects with 3 workers (20 GiB) on 16 GiB: refused, naming objectSize", () => {
    expect(machineCapacityProblems(specOf({ objectSize: "5GiB" }), laptop)).toMatchObject([
      {
        field: "objectSize",
        code: "objectsNeedMemory",
        message:
          "objects of 5GiB need 20GiB of memory (the largest object, once shared and once in each of 3 workers); this machine has 16GiB",
      },
    ]);
  });

  it("4 GiB objects with one worker per client, 1 client: 8 GiB, accepted", () => {
    expect(
      machineCapacityProblems(specOf({ objectSize: "4GiB", clients: 1, samples: 1 }), laptop),
    ).toEqual([]);
  });

  it("a sweep: the point that does not fit is named by its index", () => {
    const problems = machineCapacityProblems(specOf({ objectSize: ["1KiB", "5GiB"] }), laptop);
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
