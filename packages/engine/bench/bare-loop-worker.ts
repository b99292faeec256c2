/**
 * The bare undici loop on a worker thread of its own, as TailLab's requests run on one, started
 * afresh for each measurement as TailLab's workers are: both clients then share the thread
 * layout, a cold start (neither runs on code another round warmed up) and the service-time tap
 * that the benches preload into worker threads, so a comparison measures the clients, not the
 * instruments.
 */
import { randomBytes } from "node:crypto";
import { parentPort, workerData } from "node:worker_threads";
import { runBareLoop, type BareLoopOptions, type BareLoopResult } from "./bare-undici-loop.ts";

export type BareLoopWorkerData = Omit<BareLoopOptions, "op" | "body"> & {
  sizeBytes: number;
  /** Run in turn over the same keys. */
  ops: BareLoopOptions["op"][];
};

/** One operation over every key; CPU is the whole process's (every thread), as for TailLab. */
export interface BarePhase extends BareLoopResult {
  op: BareLoopOptions["op"];
  seconds: number;
  cpuSeconds: number;
}

const { sizeBytes, ops, ...loop } = workerData as BareLoopWorkerData;
const body = randomBytes(sizeBytes);
const phases: BarePhase[] = [];
for (const op of ops) {
  const cpuBefore = process.cpuUsage();
  const startedMs = performance.now();
  const result = await runBareLoop({ ...loop, body, op });
  const cpu = process.cpuUsage(cpuBefore);
  phases.push({
    op,
    seconds: (performance.now() - startedMs) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    ...result,
  });
}
parentPort?.postMessage(phases);
