import type { OpenLoop } from "@taillab/api";
import type { ArrivalScheduleSpec, ScheduleOrder } from "@taillab/core";
import { Worker } from "node:worker_threads";
import {
  announceToAll,
  createScheduleBuffers,
  SCHEDULE,
  type ScheduleBuffers,
} from "./open-loop-schedule.ts";
import { engineWorkerEnv, engineWorkerUrl } from "./worker-url.ts";

export interface SchedulePacer {
  buffers: ScheduleBuffers;
  /** Starts releasing; resolves when the pacer has released all it will. */
  run(order: ScheduleOrder): Promise<void>;
  /** Releases nothing more, and wakes every waiting worker. */
  stop(): void;
  close(): Promise<void>;
}

/** A pacer thread for one open-loop phase, ready to start (its thread is up). */
export async function startSchedulePacer(runStartMonotonicMs: number): Promise<SchedulePacer> {
  const buffers = createScheduleBuffers();
  const counters = new Int32Array(buffers.counters);
  const worker = new Worker(engineWorkerUrl("schedule-pacer-worker"), {
    workerData: { buffers, runStartMonotonicMs },
    env: engineWorkerEnv(),
  });
  const message = (expected: string) =>
    new Promise<void>((resolve, reject) => {
      const onMessage = (value: unknown) => {
        if (value !== expected) return;
        worker.off("message", onMessage);
        worker.off("error", reject);
        resolve();
      };
      worker.on("message", onMessage);
      worker.once("error", reject);
    });
  await message("ready");
  return {
    buffers,
    run(order) {
      const done = message("done");
      worker.postMessage(order);
      return done;
    },
    stop() {
      Atomics.store(counters, SCHEDULE.stop, 1);
      Atomics.notify(counters, SCHEDULE.stop);
      announceToAll(counters);
    },
    async close() {
      await worker.terminate();
    },
  };
}

/** The pacer's arrival schedule for a phase: the run's whole rate, one process for all workers. */
export function arrivalsOf(openLoop: OpenLoop): ArrivalScheduleSpec {
  return { arrivals: openLoop.arrivals, rateHz: openLoop.rateHz, seed: openLoop.seed };
}
