import type { RunNotice } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { runBenchmark } from "./run-benchmark.ts";
import { noticeText } from "./run-notices.ts";

describe("run notices", () => {
  it("come as data with their English sentence beside them", async () => {
    const notices: { message: string; notice: RunNotice }[] = [];
    await runBenchmark(
      {
        clients: 1,
        samples: 4,
        objectSize: "1KiB",
        mode: "hedged",
        workload: { ops: "get:50,delete:50", prepareObjects: 4 },
        testbed: { replicas: 2, profile: "fast", seed: 3 },
      },
      { env: {} },
      { onNotice: (message, notice) => notices.push({ message, notice }) },
    );
    expect(notices.map(({ notice }) => notice.code).slice(0, 2)).toEqual([
      "unhedgedOps",
      "testbedStarted",
    ]);
    expect(notices[0]?.notice).toEqual({
      code: "unhedgedOps",
      params: { mode: "hedged", ops: ["DELETE"] },
    });
    expect(notices[1]?.notice).toMatchObject({
      code: "testbedStarted",
      params: { profile: "fast", seed: 3, urls: [expect.any(String), expect.any(String)] },
    });
    for (const { message, notice } of notices) expect(message).toBe(noticeText(notice));
  });

  it.each([
    { replicas: 1, shared: [{ code: "backupsShareReplica", params: { mode: "tied" } }] },
    { replicas: 2, shared: [] },
  ])("say that backups share the one replica there is ($replicas replicas)", async (setup) => {
    const notices: RunNotice[] = [];
    await runBenchmark(
      {
        clients: 1,
        samples: 4,
        objectSize: "1KiB",
        mode: "tied",
        testbed: { replicas: setup.replicas, profile: "fast", seed: 3 },
      },
      { env: {} },
      { onNotice: (_message, notice) => notices.push(notice) },
    );
    expect(notices.filter((notice) => notice.code === "backupsShareReplica")).toEqual(setup.shared);
  });

  it.each<[RunNotice, string]>([
    [
      { code: "backupsShareReplica", params: { mode: "hedged" } },
      "hedged mode with one replica: backups go to the same server as their first attempt, on connections of their own, and share its queue; give several endpoints (or testbed replicas) to send them elsewhere",
    ],
    [
      { code: "cleanupLeftovers", params: { objects: 12 } },
      "deleting the 12 objects the run wrote and did not delete",
    ],
    [
      {
        code: "modeCouldNotStart",
        params: { mode: "tied", reason: { message: "endpoint refused" } },
      },
      "the tied run could not start: endpoint refused",
    ],
    [
      { code: "modesNotRun", params: { modes: ["hedged"] } },
      "the server did not answer again: the series ends here; not run: the hedged run",
    ],
    [
      { code: "modesNotRun", params: { modes: ["hedged", "tied"] } },
      "the server did not answer again: the series ends here; not run: the hedged, tied runs",
    ],
    [
      {
        code: "serverLost",
        params: {
          runStartEpochMs: Date.UTC(2026, 0, 2, 6, 12, 0),
          sinceMs: 32_400,
          silentMs: 5_200,
          failures: 40,
          lastError: "ECONNREFUSED",
          phase: "PUT",
        },
      },
      "the server stopped answering at 06:12:32 UTC (32.4 s into the run): 40 requests in a row got no answer over 5.2 s, the last ECONNREFUSED; the PUT phase ended early",
    ],
    [
      {
        code: "serverLost",
        params: {
          runStartEpochMs: 0,
          sinceMs: 1_000,
          silentMs: 6_000,
          failures: 3,
          lastError: "ClientTimeout",
          phase: "mix",
        },
      },
      "the server stopped answering at 00:00:01 UTC (1.0 s into the run): 3 requests in a row got no answer over 6.0 s, the last ClientTimeout; the mixed workload ended early",
    ],
    [
      {
        code: "serverLost",
        params: {
          runStartEpochMs: 0,
          sinceMs: 1_000,
          silentMs: 60_000,
          failures: 1,
          lastError: "ClientTimeout",
          phase: "PUT",
        },
      },
      "the server stopped answering at 00:00:01 UTC (1.0 s into the run): 1 request got no answer over 60.0 s (ClientTimeout); the PUT phase ended early",
    ],
    [
      { code: "bucketCreated", params: { bucket: "lab", url: "http://127.0.0.1:9000" } },
      'bucket "lab" did not exist at http://127.0.0.1:9000, so it was created; it is kept after the run (only what the run puts in it is removed)',
    ],
    [
      { code: "tlsUnchecked", params: { url: "https://lab:9000" } },
      "endpoint https://lab:9000: TLS certificates are NOT checked (insecure): anyone on the way to the server can read and change this run's requests; trust the server's CA with a CA file instead where you can",
    ],
    [
      {
        code: "cleanupIncomplete",
        params: { objects: 6000, uploads: 1, buckets: 0, error: "ECONNREFUSED" },
      },
      "the cleanup could not remove 6000 objects, 1 open uploads and 0 buckets (ECONNREFUSED); removing them again from the run's page or with taillab cleanup retries",
    ],
  ])("reads %j as English", (notice, text) => {
    expect(noticeText(notice)).toBe(text);
  });
});
