/**
 * The bare undici loop on a worker thread of its own, as TailLab's requests run on one: both
 * clients then share the thread layout and the service-time tap that the bench preloads into
 * worker threads, so the comparison measures the clients, not the instruments.
 */
import { randomBytes } from "node:crypto";
import { parentPort, workerData } from "node:worker_threads";
import { runBareLoop, type BareLoopOptions } from "./bare-undici-loop.ts";

export type BareLoopWorkerData = Omit<BareLoopOptions, "op" | "body"> & { sizeBytes: number };

const { sizeBytes, ...loop } = workerData as BareLoopWorkerData;
const body = randomBytes(sizeBytes);
const written = await runBareLoop({ ...loop, body, op: "PUT" });
const read = await runBareLoop({ ...loop, body, op: "GET" });
parentPort?.postMessage({
  errors: { put: written.errors, get: read.errors },
  latencyUs: read.latencyUs,
  serviceTimeUs: read.serviceTimeUs,
});
