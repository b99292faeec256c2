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

  it.each<[RunNotice, string]>([
    [
      { code: "cleanupLeftovers", params: { objects: 12 } },
      "deleting the 12 objects this point wrote",
    ],
    [
      { code: "modeCouldNotStart", params: { mode: "tied", reason: "endpoint refused" } },
      "the tied run could not start: endpoint refused",
    ],
  ])("reads %j as English", (notice, text) => {
    expect(noticeText(notice)).toBe(text);
  });
});
