import { createScheduleSlots, type ScheduleOrder } from "@taillab/core";
import { parentPort, workerData } from "node:worker_threads";
import { SCHEDULE, ScheduleReleases, type ScheduleBuffers } from "./open-loop-schedule.ts";
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

function pace(order: ScheduleOrder): void {
  const slots = createScheduleSlots(order);
  for (let index = 0; !stopped();) {
    const intendedUs = slots.next();
    if (intendedUs === null) break;
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

port.on("message", (order: ScheduleOrder) => pace(order));
port.postMessage("ready");
