import { createArrivalSchedule, ownsScheduledRequest } from "@taillab/core";
import { parentPort, workerData } from "node:worker_threads";
import { SCHEDULE, ScheduleReleases, type ScheduleBuffers } from "./open-loop-schedule.ts";
import type { PacerOrder } from "./schedule-pacer.ts";
import { createRunClock } from "./run-clock.ts";

/**
 * The pacer thread: releases the open loop's requests at their intended starts. It sleeps in
 * Atomics.wait, whose timeout is not rounded to the millisecond as timers are, so requests a
 * fraction of a millisecond apart still leave apart; a stop wakes it at once.
 */

const port = parentPort;
if (!port) throw new Error("schedule-pacer-worker must run in a worker thread");
const { buffers, runStartMonotonicMs } = workerData as {
  buffers: ScheduleBuffers;
  runStartMonotonicMs: number;
};
const clock = createRunClock(runStartMonotonicMs);
const counters = new Int32Array(buffers.counters);
const releases = new ScheduleReleases(buffers);
const stopped = () => Atomics.load(counters, SCHEDULE.stop) === 1;

function pace({ schedule, startUs, count, deadlineUs, shard }: PacerOrder): void {
  const offsets = createArrivalSchedule(schedule);
  // index: this pacer's requests; g: the whole schedule's, of which a shard sends its own.
  for (let index = 0, g = 0; index < count && !stopped(); g += 1) {
    // Whole µs, as every time of a record is (the schedule's offsets are fractional).
    const intendedUs = Math.round(startUs + offsets.nextOffsetUs());
    if (deadlineUs !== null && intendedUs >= deadlineUs) break;
    if (shard !== null && !ownsScheduledRequest(g, shard)) continue;
    // The ring holds the next SCHEDULE_RING_SLOTS starts: wait for the workers to catch up.
    while (!releases.hasSlotFor(index) && !stopped()) {
      Atomics.wait(counters, SCHEDULE.stop, 0, 1);
    }
    releases.write(index, intendedUs);
    for (
      let waitUs = intendedUs - clock();
      waitUs > 0 && !stopped();
      waitUs = intendedUs - clock()
    ) {
      Atomics.wait(counters, SCHEDULE.stop, 0, waitUs / 1000);
    }
    if (stopped()) break;
    index += 1;
    releases.release(index);
  }
  releases.end();
  port?.postMessage("done");
}

port.on("message", (order: PacerOrder) => pace(order));
port.postMessage("ready");
