import { workerData } from "node:worker_threads";
import { createRunClock, monotonicMapping } from "../run-clock.ts";

/**
 * The other end of the run clock's test: each time the main thread raises the round counter,
 * this thread reads its run clock and hands the reading back. The two threads spin on shared
 * memory, so a round trip takes a microsecond or so. `timeOriginShiftMs` moves this thread's
 * performance.timeOrigin, as a wall clock slewed by NTP between two threads' starts does (the
 * threads of one run were seen up to 47 µs apart that way).
 */
const { rounds, signals, readings, runStartMonotonicMs, timeOriginShiftMs } = workerData as {
  rounds: number;
  /** [round asked, round answered]. */
  signals: SharedArrayBuffer;
  /** [reading of each round …, this thread's mapping error (µs)]. */
  readings: SharedArrayBuffer;
  runStartMonotonicMs: number;
  timeOriginShiftMs: number;
};
Object.defineProperty(performance, "timeOrigin", {
  value: performance.timeOrigin + timeOriginShiftMs,
});
const flags = new Int32Array(signals);
const values = new Float64Array(readings);
const clock = createRunClock(runStartMonotonicMs);
values[rounds] = monotonicMapping().errorMs * 1000;
for (let round = 1; round <= rounds; round += 1) {
  while (Atomics.load(flags, 0) < round) {
    // Spin: a wait would add the wake-up's time to the round trip.
  }
  values[round - 1] = clock();
  Atomics.store(flags, 1, round);
}
