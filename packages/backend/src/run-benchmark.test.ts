import type { RecentIntervals, RunProgress } from "@taillab/api";
import type { ControlPlane } from "@taillab/engine";
import type { Testbed } from "@taillab/testbed";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InputError } from "./input-error.ts";
import { startSignedTestbed, type SignedTestbed } from "./test-support/signed-testbed.ts";
import { runBenchmark, validateRunSpec } from "./run-benchmark.ts";

let signed: SignedTestbed;
let bucket: ControlPlane;
let testbed: Testbed;
let secrets: SignedTestbed["secrets"];
let credentials: SignedTestbed["credentials"];

beforeAll(async () => {
  signed = await startSignedTestbed();
  ({ bucket, testbed, secrets, credentials } = signed);
});
afterAll(async () => {
  await signed.close();
});

const endpoint = () => signed.endpoint();

describe("runBenchmark", () => {
  it("streams progress and stops when asked, keeping what was measured", async () => {
    const stop = new AbortController();
    const progress: RunProgress[] = [];
    const ended: boolean[] = [];
    let lastSeconds: RecentIntervals | null = null;
    const running = runBenchmark(
      { endpoints: [endpoint()], clients: 4, samples: 1_000_000, objectSize: "1KiB" },
      secrets,
      {
        signal: stop.signal,
        onProgress: (update, live) => {
          progress.push(update);
          ended.push(live.ended);
          if (live.ended) lastSeconds = live.encodeRecentIntervals(3600);
          // Stopped by what happened, not by the clock: a busy machine only takes longer.
          if (progress.length >= 10 && update.done >= 100 && !stop.signal.aborted) stop.abort();
        },
      },
    );
    const summary = await running;
    expect(summary.status).toBe("stopped");
    expect(summary.points[0]?.finished).toBe(false);
    const [put] = summary.points[0]?.phases ?? [];
    expect(put?.op).toBe("PUT");
    expect(put?.requests).toBeGreaterThanOrEqual(100);
    expect(put?.requests).toBeLessThan(1_000_000);
    expect(put?.errors).toBe(0);
    expect(summary.points[0]?.phases).toHaveLength(1);
    expect(progress.length).toBeGreaterThanOrEqual(10);
    expect(progress.at(-1)?.done).toBe(put?.requests);
    // The phase's last figures say so, with all its seconds.
    expect(ended.indexOf(true)).toBe(ended.length - 1);
    const seconds = (lastSeconds as RecentIntervals | null)?.intervals ?? [];
    expect(seconds.reduce((sum, second) => sum + (second.latency?.count ?? 0), 0)).toBe(
      put?.requests,
    );
    expect(progress.every((update) => update.total === 1_000_000)).toBe(true);
    expect(await bucket.listKeys(`taillab/${summary.runId}/`)).toEqual([]);
  });

  it("never deletes a key it did not create", async () => {
    const { createTransport } = await import("@taillab/engine");
    const transport = createTransport(
      "fast",
      {
        url: testbed.url,
        region: "us-east-1",
        addressing: "path",
        credentials,
        bucket: "loadgen",
        maxConnections: 1,
      },
      () => 0,
    );
    const neighbours = ["taillab/other-run/0", "taillab/0", "taillab-x/1"];
    for (const key of neighbours) await transport.putObject(key, Buffer.from("keep"));
    await transport.close();
    await runBenchmark(
      { endpoints: [endpoint()], clients: 2, samples: 20, objectSize: 100 },
      secrets,
    );
    expect((await bucket.listKeys("")).sort()).toEqual([...neighbours].sort());
    await bucket.deleteKeys(neighbours);
  });

  it("gives the points of a sweep keys of their own", async () => {
    const records: string[][] = [[], []];
    await runBenchmark(
      {
        endpoints: [endpoint()],
        clients: 1,
        samples: [3, 4],
        objectSize: 10,
        phases: ["write", "cleanup"],
      },
      secrets,
      {
        onRecords: (point, batch) =>
          records[point]?.push(...batch.filter((r) => r.op === "PUT").map((r) => r.key)),
      },
    );
    const numbers = records.map((keys) =>
      keys.map((key) => Number(key.split("/").at(-1))).sort((a, b) => a - b),
    );
    expect(numbers).toEqual([
      [0, 1, 2],
      [3, 4, 5, 6],
    ]);
  });

  it("rejects a spec with every problem named", () => {
    expect(() => validateRunSpec({ clients: 0, samples: 1, objectSize: "abc" })).toThrow(
      InputError,
    );
    try {
      validateRunSpec({ clients: 0, samples: 1, objectSize: "abc" });
    } catch (error) {
      expect((error as InputError).problems.map((problem) => problem.field)).toEqual([
        "clients",
        "objectSize",
      ]);
    }
  });
});

describe("sample experiments in assets/", () => {
  it("are valid specs", async () => {
    const folder = join(import.meta.dirname, "../../../assets/experiments");
    const files = (await readdir(folder)).filter((file) => file.endsWith(".json"));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const spec: unknown = JSON.parse(await readFile(join(folder, file), "utf8"));
      expect(() => validateRunSpec(spec), file).not.toThrow();
    }
  });
});
