import { MISSED_START_TOLERANCE_MS } from "@taillab/api";
import { createArrivalSchedule, createReplicaChooser, requestClass } from "@taillab/core";
import { setTimeout as sleep } from "node:timers/promises";
import { parentPort, workerData } from "node:worker_threads";
import {
  createRequestExecutor,
  type RequestExecutor,
  type SendAttempt,
} from "./logical-request.ts";
import { createObjectContent } from "./object-content.ts";
import { PhaseRecorder } from "./phase-recorder.ts";
import { createRunClock } from "./run-clock.ts";
import { createTransport } from "./transport/index.ts";
import type {
  CoordinatorMessage,
  PhaseCommand,
  WorkerInit,
  WorkerMessage,
} from "./worker-protocol.ts";

/**
 * One worker thread: closed-loop clients, or an open-loop dispatcher, sending logical requests
 * (one attempt, or hedged/tied attempts to several replicas) over one keep-alive pool per replica.
 */

const REPORT_INTERVAL_MS = 100;

const init = workerData as WorkerInit;
const port = parentPort;
if (!port) throw new Error("client-worker must run in a worker thread");

const clock = createRunClock(init.runStartEpochMs);
const transports = init.targets.map((target) => createTransport(init.transportKind, target, clock));
const content = createObjectContent(init.content, init.verify);
// A stop is final for the worker's life: it aborts what is in flight and starts nothing new.
const stopController = new AbortController();
const stopSignal = stopController.signal;
const chooser = createReplicaChooser({
  replicas: transports.length,
  strategy: init.replicaChoice,
});
const executors = {
  withBackups: createRequestExecutor({ mode: init.mode, hedge: init.hedge, chooser, stopSignal }),
  single: createRequestExecutor({ mode: "normal", hedge: init.hedge, chooser, stopSignal }),
};

/** Every request of a point has one size, so its hedge-delay class depends on the operation only. */
const requestClasses = new Map<string, string>();
function requestClassOf(op: string): string {
  let found = requestClasses.get(op);
  if (found === undefined) {
    found = requestClass(op, content.sizeBytes);
    requestClasses.set(op, found);
  }
  return found;
}

function send(message: WorkerMessage): void {
  port?.postMessage(message);
}

async function runRequest(
  command: PhaseCommand,
  recorder: PhaseRecorder,
  executor: RequestExecutor,
  index: number,
  scheduledStartUs: number | null,
): Promise<void> {
  const keyNumber = command.firstKey + (index % command.keyCount);
  const key = `${init.keyPrefix}${keyNumber}`;
  const body = command.op === "PUT" ? content.bodyFor(keyNumber) : null;
  const attempt: SendAttempt = (replica, options) => {
    const transport = transports[replica];
    if (!transport) throw new Error(`no transport for replica ${replica}`);
    switch (command.op) {
      case "PUT":
        return transport.putObject(key, body as Uint8Array, options);
      case "GET":
        return transport.getObject(key, {
          ...options,
          ...(init.verify ? { expect: content.expectationFor(keyNumber) } : {}),
        });
      case "DELETE":
        return transport.deleteObject(key, options);
    }
  };
  const result = await executor.execute(attempt, requestClassOf(command.op));
  // A request cut short by a stop measured nothing; it is not counted as an error.
  if (stopSignal.aborted && result.winner === null) return;
  recorder.record(key, scheduledStartUs, result, body?.byteLength ?? 0);
}

/** s3bench's closed loop: each client sends its next request when the last one is answered. */
async function runClient(
  command: PhaseCommand,
  recorder: PhaseRecorder,
  executor: RequestExecutor,
  next: Int32Array,
): Promise<void> {
  while (!stopSignal.aborted) {
    const index = Atomics.add(next, 0, 1);
    if (index >= command.count) return;
    await runRequest(command, recorder, executor, index, null);
  }
}

/**
 * Open loop: requests leave at their scheduled times whatever is still in flight. This worker
 * carries 1/workerCount of the rate; a request that leaves late is counted as a missed start,
 * and its latency still counts from the schedule.
 */
async function runOpenLoop(
  command: PhaseCommand,
  recorder: PhaseRecorder,
  executor: RequestExecutor,
  next: Int32Array,
): Promise<void> {
  const { schedule, startUs } = command.openLoop ?? { schedule: null, startUs: 0 };
  if (!schedule) return;
  const arrivals = createArrivalSchedule({
    arrivals: schedule.arrivals,
    rateHz: schedule.rateHz / init.workerCount,
    seed: schedule.seed * 1009 + init.workerIndex,
  });
  const inFlight = new Set<Promise<void>>();
  while (!stopSignal.aborted) {
    const scheduledUs = startUs + arrivals.nextOffsetUs();
    await waitUntil(scheduledUs);
    if (stopSignal.aborted) break;
    const index = Atomics.add(next, 0, 1);
    if (index >= command.count) break;
    if (clock() - scheduledUs > MISSED_START_TOLERANCE_MS * 1000) recorder.recordMissedStart();
    const request = runRequest(command, recorder, executor, index, scheduledUs).finally(() =>
      inFlight.delete(request),
    );
    inFlight.add(request);
  }
  await Promise.all(inFlight);
}

/**
 * Never early: a timer measures its delay from the event loop's cached time, which lags when the
 * loop is busy, so it can fire before the wanted moment. Sleep again until the clock agrees.
 */
async function waitUntil(targetUs: number): Promise<void> {
  for (
    let waitUs = targetUs - clock();
    waitUs > 0 && !stopSignal.aborted;
    waitUs = targetUs - clock()
  ) {
    await sleep(Math.max(1, waitUs / 1000), undefined, { signal: stopSignal }).catch(() => {});
  }
}

async function runPhase(command: PhaseCommand): Promise<void> {
  const recorder = new PhaseRecorder(command.op, command.openLoop !== null, init.collectRecords);
  const next = new Int32Array(command.nextIndex);
  const executor = command.allowBackups ? executors.withBackups : executors.single;
  const reporter = setInterval(() => {
    if (recorder.hasNews) send(recorder.takeReport());
  }, REPORT_INTERVAL_MS);
  try {
    if (command.openLoop) {
      await runOpenLoop(command, recorder, executor, next);
    } else {
      await Promise.all(
        Array.from({ length: init.clients }, () => runClient(command, recorder, executor, next)),
      );
    }
  } finally {
    clearInterval(reporter);
  }
  send(recorder.takeReport());
  send({ type: "phaseDone", firstStartUs: recorder.firstStartUs, lastEndUs: recorder.lastEndUs });
}

port.on("message", (message: CoordinatorMessage) => {
  if (message.type === "stop") {
    stopController.abort();
    return;
  }
  runPhase(message).catch((error: unknown) => {
    send({ type: "failed", message: error instanceof Error ? error.message : String(error) });
  });
});

send({ type: "ready" });
