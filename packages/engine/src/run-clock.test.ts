import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import {
  createRunClock,
  epochNowMs,
  measureMonotonicMapping,
  monotonicMapping,
  monotonicMsAtEpoch,
} from "./run-clock.ts";

describe("one run clock for all threads", () => {
  it("maps this thread's clock with a bounded error", () => {
    const mapping = measureMonotonicMapping();
    expect(mapping.errorMs).toBeGreaterThanOrEqual(0);
    // Two reads of performance.now() around one of process.hrtime: never a millisecond apart.
    expect(mapping.errorMs).toBeLessThan(1);
  });

  // Causality: a reading the other thread takes after this thread's t0 and before its t1 must
  // fall between them, give or take the rounding to whole µs and the two mappings' errors.
  it("a worker's reading falls between the main thread's readings around it, whatever its wall clock said at its start", async () => {
    const rounds = 2000;
    const runStartMonotonicMs = monotonicMsAtEpoch(epochNowMs() - 1000);
    const signals = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
    const readings = new SharedArrayBuffer((rounds + 1) * Float64Array.BYTES_PER_ELEMENT);
    const flags = new Int32Array(signals);
    const values = new Float64Array(readings);
    const worker = new Worker(new URL("./test-support/clock-echo-thread.ts", import.meta.url), {
      workerData: { rounds, signals, readings, runStartMonotonicMs, timeOriginShiftMs: 0.05 },
    });
    const exited = new Promise((resolve, reject) => {
      worker.once("exit", resolve);
      worker.once("error", reject);
    });
    await new Promise((resolve) => worker.once("online", resolve));
    const clock = createRunClock(runStartMonotonicMs);
    const brackets: [number, number][] = [];
    for (let round = 1; round <= rounds; round += 1) {
      const before = clock();
      Atomics.store(flags, 0, round);
      while (Atomics.load(flags, 1) < round) {
        // Spin until the worker answered this round.
      }
      brackets.push([before, clock()]);
    }
    await exited;
    const slackUs = 1 + (values[rounds] as number) + monotonicMapping().errorMs * 1000;
    let worst = 0;
    brackets.forEach(([before, after], index) => {
      const reading = values[index] as number;
      worst = Math.max(worst, before - reading, reading - after);
    });
    expect(worst).toBeLessThanOrEqual(slackUs);
  });
});
