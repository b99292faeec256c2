import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { createScheduleBuffers } from "./open-loop-schedule.ts";

interface ThreadCount {
  claimed: number;
  wrong: number;
}

function ringThread(
  buffers: ReturnType<typeof createScheduleBuffers>,
  role: "pacer" | "worker",
  requests: number,
): Promise<ThreadCount> {
  const thread = new Worker(new URL("./test-support/schedule-ring-thread.ts", import.meta.url), {
    workerData: { buffers, role, requests },
  });
  return new Promise((resolve, reject) => {
    thread.once("message", (count: ThreadCount) => resolve(count));
    thread.once("error", reject);
  });
}

describe("the open loop's schedule ring", () => {
  // The pacer keeps the ring full, so each claim frees the slot the pacer writes next: a worker
  // reading its slot after claiming it may find the start of the request 65 536 later.
  it("gives every request its own start, with a pacer spinning over millions of requests", async () => {
    const requests = 3_000_000;
    const buffers = createScheduleBuffers();
    const counts = await Promise.all([
      ringThread(buffers, "worker", requests),
      ringThread(buffers, "worker", requests),
      ringThread(buffers, "pacer", requests),
    ]);
    expect(counts.reduce((sum, count) => sum + count.claimed, 0)).toBe(requests);
    expect(counts.map((count) => count.wrong)).toEqual([0, 0, 0]);
  }, 120_000);
});
