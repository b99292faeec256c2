import type { Operation } from "@taillab/api";
import {
  createMixPlanner,
  createPhasePlanner,
  emptyPlannedRequest,
  objectSizesOf,
  PhaseAccount,
  sendsBackups,
  type LatencyParts,
  type LogicalRequest,
  type PlannedRequest,
  type RequestPlanner,
} from "@taillab/core";
import { parentPort, workerData } from "node:worker_threads";
import type { AttemptResult, LogicalResult } from "./hedged-tied-executor.ts";
import { ClientProbe } from "./client-probe.ts";
import { RecordBatchWriter, type RecordContext } from "./record-batch.ts";
import { createObjectContent } from "./object-content.ts";
import { ScheduleClaims } from "./open-loop-schedule.ts";
import { createRunClock } from "./run-clock.ts";
import { createRequestSetup, type RequestSetup } from "./request-setup.ts";
import { ServerHealth, verdictOf } from "./server-health.ts";
import { workloadBucketName } from "./workload-buckets.ts";
import type { BuiltRequest, RequestOrigin, WorkerRequests } from "./operations/engine-operation.ts";
import { ENGINE_OPERATIONS } from "./operations/registry.ts";
import { loadTransportFactory } from "./transport/transport-factory.ts";
import { requestTimeoutOf } from "./transport/transport-target.ts";
import type {
  CoordinatorMessage,
  MixOrder,
  PhaseCommand,
  WorkerInit,
  WorkerMessage,
} from "./worker-protocol.ts";

/**
 * One worker thread: closed-loop clients, or an open-loop dispatcher, sending logical requests
 * (one attempt, or hedged/tied attempts to several replicas) over one keep-alive pool per replica.
 * What each request is comes from core's planners (request-plan.ts), how it is built and sent
 * from its operation's module (operations/registry.ts); this script sends and counts it.
 */

const REPORT_INTERVAL_MS = 100;
/**
 * Every this many reports (and with the last) a report carries the four figures besides the
 * latency: only the phase's summary reads them (PhaseAccount.takeDelta), so a worker that
 * cannot report again loses at most a second of them, as of the latency a tenth of one.
 */
const REPORTS_PER_PARTS = 10;

const init = workerData as WorkerInit;
const port = parentPort;
if (!port) throw new Error("client-worker must run in a worker thread");

const clock = createRunClock(init.runStartMonotonicMs);
const content = createObjectContent(
  init.content,
  init.verify,
  objectSizesOf(init.objectSizeBytes, init.objectSizes),
);
// A stop is final for the worker's life: it aborts what is in flight and starts nothing new.
const stopController = new AbortController();
const stopSignal = stopController.signal;
/**
 * Made before the worker says it is ready, once its transport's module is loaded (the SDK only
 * for the `sdk` kind); a live session retunes it (mode, hedge options, replicas) while the phase
 * runs.
 */
let setup: RequestSetup;
/** The requests being executed now: a retune waits for those started before it. */
const requestsInFlight = new Set<Promise<LogicalResult>>();

function send(message: WorkerMessage, transfer: ArrayBuffer[] = []): void {
  port?.postMessage(message, transfer);
}

/** One phase as this worker runs it. */
interface PhaseRun {
  command: PhaseCommand;
  /**
   * Aborted by a stop of the run, or when the server is lost: what is in flight is cut off
   * (recorded, and counted apart from the figures), and nothing new starts.
   */
  signal: AbortSignal;
  /** Ends the phase early (the server is lost). */
  end: () => void;
  health: ServerHealth;
  /** Run time (µs) before which no request starts: the clients back off from a silent server. */
  resumeAtUs: number;
  /** Closed loop: hands out request indexes across all clients of all workers. */
  next: Int32Array;
  /** What this worker counted since its last report, per operation. */
  accounts: Map<Operation, PhaseAccount>;
  /** Per-attempt records since the last report (when the coordinator keeps them). */
  records: RecordBatchWriter;
  /** Requests answered since the last fold (see recordRequest). */
  finished: FinishedRequest[];
  foldScheduled: boolean;
  planner: RequestPlanner;
  /** What the planner planned last: read at once, as the next request is planned into it. */
  planned: PlannedRequest;
  mix: MixState | null;
  /** What the phase's requests are built with. */
  requests: WorkerRequests;
  /** This worker's own health while the phase runs. */
  probe: ClientProbe;
  /** Reports sent so far. */
  reports: number;
}

/** A logical request as it ended, before it is folded into the accounts and records. */
interface FinishedRequest {
  op: Operation;
  key: string;
  origin: RequestOrigin;
  result: LogicalResult;
}

interface MixState {
  order: MixOrder;
  movedBytes: BigInt64Array;
}

function accountFor(run: PhaseRun, op: Operation): PhaseAccount {
  let account = run.accounts.get(op);
  if (!account) {
    // The coordinator's account makes the summary; the worker's only hands over deltas.
    const loop = run.command.schedule ? "open" : "closed";
    account = new PhaseAccount({ op, loop, hedgeBudgetPct: null });
    run.accounts.set(op, account);
  }
  return account;
}

/**
 * Keeps a logical request that ended, to be folded once the event loop has taken the answers
 * that arrived with it and sent the requests they let start: its accounting and records then sit
 * neither between those answers and their timestamps nor between those requests' intended starts
 * and their sends. Folded at the latest before each report.
 */
function recordRequest(
  run: PhaseRun,
  op: Operation,
  key: string,
  origin: RequestOrigin,
  result: LogicalResult,
): void {
  run.finished.push({ op, key, origin, result });
  if (run.foldScheduled) return;
  run.foldScheduled = true;
  afterPendingSends(() => foldFinished(run));
}

/**
 * Runs `work` once the requests that the answers just taken let start are on the wire: undici
 * writes a request on a kept-alive socket only in a later check phase (setImmediate), a second
 * one later for a socket that just went idle (it first reads what the server may have sent
 * unasked), so work one setImmediate away sat between those requests' intended starts and their
 * sends, in their latency. Returns a cancel.
 */
function afterPendingSends(work: () => void): () => void {
  let hop = setImmediate(() => {
    hop = setImmediate(work);
  });
  return () => clearImmediate(hop);
}

function foldFinished(run: PhaseRun): void {
  run.foldScheduled = false;
  const finished = run.finished;
  run.finished = [];
  for (const { op, key, origin, result } of finished) foldRequest(run, op, key, origin, result);
}

/** Folds a logical request into its operation's account, and keeps its attempts' records. */
function foldRequest(
  run: PhaseRun,
  op: Operation,
  key: string,
  origin: RequestOrigin,
  result: LogicalResult,
): void {
  // The request as core counts it is also its records' context.
  const request: LogicalRequest & RecordContext = {
    op,
    key,
    intendedStartUs: origin.intendedStartUs,
    client: origin.client,
    measured: origin.measured,
    phaseIndex: run.command.phaseIndex,
    // The spread first: V8 then clones the outcome's shape whole, a sixth of the time of adding
    // its fields one by one after `replica`.
    attempts: result.attempts.map(({ replica, outcome }) => ({ ...outcome, replica })),
    winner: result.winner,
  };
  const parts = accountFor(run, op).add(request);
  if (parts) noteClientStall(run, request, parts);
  if (!init.collectRecords) return;
  for (let index = 0; index < result.attempts.length; index++) {
    const { attempt, replica, outcome } = result.attempts[index] as AttemptResult;
    run.records.add(request, attempt, replica, outcome, index === result.winner);
  }
}

/** A measured answer's latency, and the part of its server time this worker could not run. */
function noteClientStall(run: PhaseRun, request: LogicalRequest, parts: LatencyParts): void {
  const winner = request.winner === null ? undefined : request.attempts[request.winner];
  if (!winner) return;
  // The whole wait for the answer, upload included: the upload's end is stamped in a callback, so
  // a held loop delays that stamp and its stall would otherwise hide in the upload. It comes out
  // of the server's part, never more than it (core's serverAndStall).
  const stallUs = run.probe.stallWithin(winner.sentUs, winner.firstByteUs);
  run.probe.noteAnswer(request.op, winner.endUs, parts.latencyUs, stallUs);
}

function transportFor(replica: number) {
  const transport = setup.transports[replica];
  if (!transport) throw new Error(`no transport for replica ${replica}`);
  return transport;
}

function keyOf(keyNumber: number): string {
  return `${init.keyPrefix}${keyNumber}`;
}

/** The planned request, built by its operation's module. */
function buildRequest(run: PhaseRun, origin: RequestOrigin): BuiltRequest {
  const { mix, planned, requests } = run;
  const operation = ENGINE_OPERATIONS[planned.op];
  if (mix) return operation.mixRequest(requests, mix.order.workload, planned, origin);
  if (!operation.phaseRequest) throw new Error(`a ${planned.op} phase needs a workload`);
  return operation.phaseRequest(requests, planned.keyNumber);
}

/**
 * `taillab-<runId>-w<worker>-<n>` (workloadBucketName): unique to the run and the worker, and
 * what the run removes after the phase.
 */
function bucketNameOf(bucketNumber: number): string {
  const runId = init.keyPrefix.split("/").at(-2) ?? "run";
  return workloadBucketName(runId, init.workerIndex, bucketNumber);
}

async function runRequest(
  run: PhaseRun,
  index: number,
  intendedStartUs: number,
  client: number,
): Promise<void> {
  const { mix, planned } = run;
  run.planner.plan(index, intendedStartUs, planned);
  const { op, measured } = planned;
  const origin: RequestOrigin = { intendedStartUs, client, measured };
  if (measured) run.probe.noteStart(intendedStartUs, clock(), run.command.schedule !== null);
  const { key, send } = buildRequest(run, origin);
  // A mix's DELETE and multipart uploads never get backups (sendsBackups).
  const backups = run.command.allowBackups && (mix === null || sendsBackups(setup.mode, op));
  const { withBackups, single } = setup.executorsOn(run.signal);
  const executing = (backups ? withBackups : single).execute(send, planned.requestClass);
  requestsInFlight.add(executing);
  let result: LogicalResult;
  try {
    result = await executing;
  } finally {
    requestsInFlight.delete(executing);
  }
  // A request cut short by a stop (or the phase's end) measured nothing and says nothing of the
  // server's health, but it may have reached the server: it is recorded, and counted apart.
  if (!(run.signal.aborted && result.winner === null)) noteHealth(run, result);
  if (mix) {
    const winner = result.winner === null ? null : result.attempts[result.winner];
    if (winner) Atomics.add(mix.movedBytes, 0, BigInt(winner.outcome.bytes));
  }
  recordRequest(run, op, key, origin, result);
}

/**
 * Tells the phase's health what the request says about the server: a request without an answer
 * holds every client of this worker back a while, and the one that finds the server lost ends
 * the phase for every worker.
 */
function noteHealth(run: PhaseRun, result: LogicalResult): void {
  const first = result.attempts[0]?.outcome;
  const last = result.attempts.at(-1)?.outcome;
  if (!first || !last) return;
  const { pauseMs, loss } = run.health.note(verdictOf(result), first.sentUs / 1000, last.error);
  if (pauseMs > 0) run.resumeAtUs = Math.max(run.resumeAtUs, clock() + pauseMs * 1000);
  if (loss) {
    send({ type: "serverLost", loss });
    run.end();
  }
}

/** Until the back-off after a request without an answer is over, or the phase ends. */
async function backOff(run: PhaseRun): Promise<void> {
  const waitMs = (run.resumeAtUs - clock()) / 1000;
  if (waitMs <= 0) return;
  await sleep(waitMs, run.signal);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

function phaseIsOver(run: PhaseRun): boolean {
  if (run.signal.aborted) return true;
  if (!run.mix) return false;
  const { deadlineUs, workload } = run.mix.order;
  if (deadlineUs !== null && clock() >= deadlineUs) return true;
  const totalBytes = workload.totalBytes;
  return totalBytes !== undefined && Atomics.load(run.mix.movedBytes, 0) >= BigInt(totalBytes);
}

/**
 * s3bench's closed loop: each client sends its next request when the last one is answered; a
 * request is meant to start when its client takes it.
 */
async function runClient(run: PhaseRun, client: number): Promise<void> {
  while (!phaseIsOver(run)) {
    // Only when backing off: an await of an async call costs a promise per request.
    if (run.resumeAtUs > clock()) {
      await backOff(run);
      if (phaseIsOver(run)) return;
    }
    const intendedStartUs = clock();
    const index = Atomics.add(run.next, 0, 1);
    if (index >= run.command.count) return;
    await runRequest(run, index, intendedStartUs, client);
  }
}

/**
 * Open loop: this worker sends the requests it claims from the run's one schedule as soon as
 * the pacer releases them, whatever is still in flight; latency counts from the intended start.
 * With maxOutstanding requests in flight it stops claiming, so released requests wait (late, and
 * counted as such) rather than piling up in memory.
 */
async function runOpenLoop(run: PhaseRun, claims: ScheduleClaims): Promise<void> {
  // A count and one waiter, not a race over the requests in flight: racing 10 000 pending
  // promises on every answer adds a reaction to each, and they pile up by the million.
  let inFlight = 0;
  let slotFreed: (() => void) | null = null;
  const finished = () => {
    inFlight -= 1;
    slotFreed?.();
    slotFreed = null;
  };
  while (!phaseIsOver(run)) {
    if (inFlight >= init.maxOutstanding) {
      await new Promise<void>((resolve) => (slotFreed = resolve));
      continue;
    }
    // Requests released meanwhile wait in the schedule, late, and are counted so.
    if (run.resumeAtUs > clock()) {
      await backOff(run);
      continue;
    }
    const claim = claims.claim();
    if (claim === null) {
      if (claims.exhausted) break;
      await claims.nextRelease();
      continue;
    }
    // A live lab answers its knobs: arrivals too far behind are dropped, and counted.
    const shedAfterMs = init.shedBacklogAfterMs;
    if (shedAfterMs !== null && clock() - claim.intendedStartUs > shedAfterMs * 1000) {
      run.probe.noteShed(clock());
      continue;
    }
    inFlight += 1;
    void runRequest(run, claim.index, claim.intendedStartUs, init.firstClient).finally(finished);
  }
  while (inFlight > 0) await new Promise<void>((resolve) => (slotFreed = resolve));
}

/** What this worker's requests of the phase are. */
function plannerOf(command: PhaseCommand): RequestPlanner {
  const { mix } = command;
  if (mix === null) return createPhasePlanner(command, content.sizeOf);
  return createMixPlanner(
    {
      workload: mix.workload,
      firstKey: command.firstKey,
      newKeyFirst: mix.newKeyFirst,
      newKeys: new Int32Array(mix.newKeys),
      warmupEndUs: mix.warmupEndUs,
      measured: command.measured,
      workerIndex: init.workerIndex,
    },
    content.sizeOf,
  );
}

function report(run: PhaseRun, final: boolean): void {
  foldFinished(run);
  const withParts = final || run.reports % REPORTS_PER_PARTS === REPORTS_PER_PARTS - 1;
  run.reports += 1;
  const accounts = [...run.accounts];
  // A worker with nothing new (its clients all waiting on a slow server) reports once a second,
  // for its CPU and event-loop delay, rather than ten times a second for nothing.
  const news = run.probe.hasNews || accounts.some(([, account]) => account.hasNews);
  if (!news && !withParts) return;
  const deltas = accounts
    .filter(([, account]) => withParts || account.hasNews)
    .map(([op, account]) => ({ op, delta: account.takeDelta({ withParts }) }));
  const records = run.records.size > 0 ? run.records.take() : null;
  send(
    { type: "report", deltas, records, health: run.probe.take() },
    records ? [records.numbers.buffer] : [],
  );
}

async function runPhase(command: PhaseCommand): Promise<void> {
  // A plain signal that a stop aborts too, rather than AbortSignal.any of the two: a composite
  // re-reads its sources through WeakRefs each time `aborted` is asked, three times a request
  // (some 160 ns against 16, and an allocation).
  const ended = new AbortController();
  const signal = ended.signal;
  const stopPhase = () => ended.abort();
  if (stopSignal.aborted) stopPhase();
  else stopSignal.addEventListener("abort", stopPhase, { once: true });
  const [target] = init.targets;
  const health = new ServerHealth(
    command.health,
    () => clock() / 1000,
    target ? requestTimeoutOf(target) : undefined,
  );
  const run: PhaseRun = {
    command,
    signal,
    end: () => ended.abort(),
    health,
    resumeAtUs: 0,
    next: new Int32Array(command.nextIndex),
    accounts: new Map(),
    records: new RecordBatchWriter(),
    finished: [],
    foldScheduled: false,
    planner: plannerOf(command),
    planned: emptyPlannedRequest(),
    mix: command.mix
      ? { order: command.mix, movedBytes: new BigInt64Array(command.mix.movedBytes) }
      : null,
    requests: {
      keyOf,
      transportFor,
      content,
      verify: init.verify,
      keyPrefix: init.keyPrefix,
      signal,
      bucketNameOf,
      recordRequest: (op, key, origin, result) => recordRequest(run, op, key, origin, result),
    },
    probe: new ClientProbe(clock, init.workerIndex, () => requestsInFlight.size > 0),
    reports: 0,
  };
  // Set in the interval's callback (an annotation alone would leave it narrowed to null below).
  let cancelReport = null as (() => void) | null;
  const reporter = setInterval(() => {
    // Another worker found the server lost: this one's requests in flight are cut off too.
    if (health.lost) run.end();
    // The report's folding and encoding would otherwise hold every send pending on the loop.
    cancelReport ??= afterPendingSends(() => {
      cancelReport = null;
      report(run, false);
    });
  }, REPORT_INTERVAL_MS);
  try {
    if (command.schedule) {
      await runOpenLoop(run, new ScheduleClaims(command.schedule));
    } else {
      await Promise.all(
        Array.from({ length: init.clients }, (_, index) =>
          runClient(run, init.firstClient + index),
        ),
      );
    }
  } finally {
    stopSignal.removeEventListener("abort", stopPhase);
    clearInterval(reporter);
    cancelReport?.();
    run.probe.stop();
  }
  report(run, true);
  for (const account of run.accounts.values()) account.destroy();
  send({ type: "phaseDone" });
}

function onMessage(message: CoordinatorMessage): void {
  if (message.type === "stop") {
    stopController.abort();
    return;
  }
  if (message.type === "retune") {
    // Requests started before the change may still send to a replica it left out (a backup
    // after its delay): the change is done when they are.
    const startedBefore = [...requestsInFlight];
    setup.retune(message);
    void Promise.allSettled(startedBefore).then(() => send({ type: "retuned" }));
    return;
  }
  runPhase(message).catch(reportFailure);
}

function reportFailure(error: unknown): void {
  send({ type: "failed", message: error instanceof Error ? error.message : String(error) });
}

// A CommonJS bundle of this worker (the desktop app's) cannot await at its top level.
loadTransportFactory(init.transportKind).then((createTransport) => {
  setup = createRequestSetup({ ...init, createTransport, clock });
  port.on("message", onMessage);
  send({ type: "ready" });
}, reportFailure);
