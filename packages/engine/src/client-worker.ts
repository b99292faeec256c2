import { parentPort, workerData } from "node:worker_threads";
import { createObjectContent } from "./object-content.ts";
import { PhaseRecorder } from "./phase-recorder.ts";
import { createRunClock } from "./run-clock.ts";
import { createTransport, type ObjectTransport, type RequestOutcome } from "./transport/index.ts";
import type {
  CoordinatorMessage,
  PhaseCommand,
  WorkerInit,
  WorkerMessage,
} from "./worker-protocol.ts";

/** One worker thread: `clients` closed-loop clients sharing one keep-alive pool. */

const REPORT_INTERVAL_MS = 100;

const init = workerData as WorkerInit;
const port = parentPort;
if (!port) throw new Error("client-worker must run in a worker thread");

const clock = createRunClock(init.runStartEpochMs);
const transport: ObjectTransport = createTransport(init.transportKind, init.target, clock);
const content = createObjectContent(init.content, init.verify);
// A stop is final for the worker's life: it aborts what is in flight and starts nothing new.
const stopController = new AbortController();

function send(message: WorkerMessage): void {
  port?.postMessage(message);
}

function runRequest(
  command: PhaseCommand,
  keyNumber: number,
  key: string,
): Promise<RequestOutcome> {
  const signal = stopController.signal;
  switch (command.op) {
    case "PUT":
      return transport.putObject(key, content.bodyFor(keyNumber), signal);
    case "GET":
      return transport.getObject(key, {
        signal,
        ...(init.verify ? { expect: content.expectationFor(keyNumber) } : {}),
      });
    case "DELETE":
      return transport.deleteObject(key, signal);
  }
}

async function runClient(command: PhaseCommand, recorder: PhaseRecorder, next: Int32Array) {
  while (!stopController.signal.aborted) {
    const index = Atomics.add(next, 0, 1);
    if (index >= command.count) return;
    const keyNumber = command.firstKey + index;
    const key = `${init.keyPrefix}${keyNumber}`;
    const outcome = await runRequest(command, keyNumber, key);
    // A request cut short by a stop measured nothing; it is not counted as an error.
    if (outcome.error === "Aborted" && stopController.signal.aborted) return;
    recorder.record(key, outcome);
  }
}

async function runPhase(command: PhaseCommand): Promise<void> {
  const recorder = new PhaseRecorder(command.op);
  const next = new Int32Array(command.nextIndex);
  const reporter = setInterval(() => {
    if (recorder.hasNews) send(recorder.takeReport());
  }, REPORT_INTERVAL_MS);
  try {
    await Promise.all(
      Array.from({ length: init.clients }, () => runClient(command, recorder, next)),
    );
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
