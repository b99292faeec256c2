import { RunSummarySchema } from "@taillab/api";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./test-support/run-cli.ts";

/**
 * A run of one object larger than 4 GiB, apart from the command line's fault matrix
 * (cli-faults.test.ts): it holds the object twice, so it never runs beside the files of 2 GiB
 * objects, which run alone (vitest.config.ts).
 */

let library = "";
beforeAll(async () => {
  library = await mkdtemp(join(tmpdir(), "taillab-huge-object-"));
});
afterAll(async () => {
  await rm(library, { recursive: true, force: true });
});

describe("taillab run of one object over 4 GiB", () => {
  // Node's randomFillSync aborted the process (exit 134) from 4 GiB. This holds the object twice,
  // in the engine and in the embedded testbed: about 8.6 GB at its peak.
  it("an object of 4 GiB + 1 byte: written, read back whole and removed", async () => {
    const size = 2 ** 32 + 1;
    const result = await runCli([
      "run",
      ...["--size", String(size), "--clients", "1", "--samples", "1", "--workers", "1"],
      // Moving 4 GiB twice through a busy machine is slow, not hung: the default 60 s is not it.
      ...["--request-timeout", "30min", "--json", "--results", library],
    ]);
    expect(result.code, result.stderr).toBe(0);
    const phases = RunSummarySchema.parse(JSON.parse(result.stdout)).points[0]?.phases ?? [];
    expect(
      phases.map(({ op, requests, errors, bytes }) => ({ op, requests, errors, bytes })),
    ).toEqual([
      { op: "PUT", requests: 1, errors: 0, bytes: size },
      { op: "GET", requests: 1, errors: 0, bytes: size },
      { op: "DELETE", requests: 1, errors: 0, bytes: 0 },
    ]);
  });
});
