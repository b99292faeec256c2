import { englishOf, type Operation } from "@taillab/api";
import {
  createKeyChooser,
  createOperationChooser,
  createRandom,
  createRangeChooser,
  createSizeSampler,
  operationOf,
  parseKeyChoice,
  parseOperationMix,
  parseRangeChoice,
  parseSizeDistribution,
  latencyParts,
  PhaseAccount,
  requestClass,
  sendsBackups,
  type ByteRange,
  type LogicalRequest,
  type Random,
  type TextParseResult,
} from "@taillab/core";
import { parentPort, workerData } from "node:worker_threads";
import type { LogicalResult, SendAttempt } from "./hedged-tied-executor.ts";
import { ClientProbe } from "./client-probe.ts";
import { RecordBatchWriter } from "./record-batch.ts";
import { createObjectContent } from "./object-content.ts";
import { ScheduleClaims } from "./open-loop-schedule.ts";
import { createRunClock } from "./run-clock.ts";
import { createRequestSetup, type RequestSetup } from "./request-setup.ts";
import { ServerHealth, verdictOf } from "./server-health.ts";
import { workloadBucketName } from "./workload-buckets.ts";
import { uploadInParts } from "./transport/multipart-upload.ts";
import type { RequestOutcome } from "./transport/object-transport.ts";
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
const content = createObjectContent(init.content, init.verify, objectSizes());
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

/**
 * Each key's object size: the point's one size, or drawn from the workload's distribution by a
 * generator seeded with the key, so every worker (and a later read) agrees on it.
 */
function objectSizes(): (keyNumber: number) => number {
  const sizes = init.objectSizes;
  if (!sizes) return () => init.objectSizeBytes;
  const parsed = parseSizeDistribution(sizes.distribution);
  if (!parsed.ok) throw new Error(`workload.sizes: ${parsed.reason}`);
  const distribution = parsed.value;
  return (keyNumber) =>
    createSizeSampler(distribution, createRandom(sizes.seed * 100_003 + keyNumber)).nextSizeBytes();
}

/**
 * The hedge-delay class of a request: its operation and size class, cached per pair (by
 * operation, then size: no key string is made per request).
 */
const requestClasses = new Map<string, Map<number, string>>();
let cachedClasses = 0;
function requestClassOf(op: string, sizeBytes: number): string {
  let bySize = requestClasses.get(op);
  if (bySize === undefined) {
    bySize = new Map();
    requestClasses.set(op, bySize);
  }
  let found = bySize.get(sizeBytes);
  if (found === undefined) {
    found = requestClass(op, sizeBytes);
    if (cachedClasses < 10_000) {
      bySize.set(sizeBytes, found);
      cachedClasses += 1;
    }
  }
  return found;
}

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
  mix: MixState | null;
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
  bucketNumber: number;
  chooseOperation: () => Operation;
  choosePreparedKey: () => number;
  chooseRange: ((objectSizeBytes: number) => ByteRange) | null;
  newKeys: Int32Array;
  random: Random;
}

/** Everything about one request but its sending: what it is, where it goes, what it carries. */
interface PlannedRequest {
  op: Operation;
  key: string;
  body: Uint8Array | null;
  /** Of the object the request reads or writes (its hedge-delay class). */
  sizeBytes: number;
  send: SendAttempt;
  /** DELETE and multipart uploads never get backups. */
  backups: boolean;
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

/** Where one logical request was meant to start, who sent it, and whether it is measured. */
interface RequestOrigin {
  intendedStartUs: number;
  client: number;
  measured: boolean;
}

/**
 * Keeps a logical request that ended, to be folded once the event loop has taken the answers
 * that arrived with it: its accounting and records then do not sit between those answers and
 * their timestamps. Folded at the latest before each report.
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
  setImmediate(() => foldFinished(run));
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
  const request: LogicalRequest = {
    op,
    ...origin,
    phaseIndex: run.command.phaseIndex,
    attempts: result.attempts.map(({ replica, outcome }) => ({ replica, ...outcome })),
    winner: result.winner,
  };
  accountFor(run, op).add(request);
  noteClientStall(run, request);
  if (!init.collectRecords) return;
  const context = { op, key, phaseIndex: run.command.phaseIndex, ...origin };
  result.attempts.forEach(({ attempt, replica, outcome }, index) =>
    run.records.add(context, attempt, replica, outcome, index === result.winner),
  );
}

/** A measured answer's latency, and the part of its server time this worker could not run. */
function noteClientStall(run: PhaseRun, request: LogicalRequest): void {
  const parts = request.measured ? latencyParts(request) : null;
  const winner = request.winner === null ? undefined : request.attempts[request.winner];
  if (!parts || !winner) return;
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

/** One-operation phases (write, read, cleanup): request i uses key firstKey + i mod keyCount. */
function planPhaseRequest(command: PhaseCommand, index: number): PlannedRequest {
  const keyNumber = command.firstKey + (index % command.keyCount);
  const key = keyOf(keyNumber);
  const body = command.op === "PUT" ? content.bodyFor(keyNumber) : null;
  const send: SendAttempt = (replica, options) => {
    const transport = transportFor(replica);
    switch (command.op) {
      case "PUT":
        return transport.putObject(key, body as Uint8Array, options);
      case "GET":
        return transport.getObject(
          key,
          init.verify ? { ...options, expect: content.expectationFor(keyNumber) } : options,
        );
      case "DELETE":
        return transport.deleteObject(key, options);
      default:
        throw new Error(`a ${command.op} phase needs a workload`);
    }
  };
  return {
    op: command.op,
    key,
    body,
    sizeBytes: content.sizeOf(keyNumber),
    send,
    backups: command.allowBackups,
  };
}

/**
 * A mixed workload's request: reads (GET, HEAD, COPY's source, LIST) use the prepared objects,
 * so they never miss; writes (PUT, COPY's target, multipart) create new keys, and DELETE
 * removes one of those (or finds it gone: S3 answers 204 either way).
 */
function planMixRequest(run: PhaseRun, mix: MixState, origin: RequestOrigin): PlannedRequest {
  const { command } = run;
  const op = mix.chooseOperation();
  const { workload, newKeyFirst } = mix.order;
  const prepared = () => command.firstKey + mix.choosePreparedKey();
  const newKey = () => newKeyFirst + Atomics.add(mix.newKeys, 0, 1);
  const backups = command.allowBackups && sendsBackups(setup.mode, op);
  switch (op) {
    case "GET": {
      const keyNumber = prepared();
      const key = keyOf(keyNumber);
      const range = mix.chooseRange?.(content.sizeOf(keyNumber));
      const expect = !init.verify
        ? undefined
        : range
          ? content.expectationForRange(keyNumber, range)
          : content.expectationFor(keyNumber);
      const send: SendAttempt = (replica, options) =>
        transportFor(replica).getObject(key, {
          ...options,
          ...(range ? { range } : {}),
          ...(expect ? { expect } : {}),
        });
      return { op, key, body: null, sizeBytes: content.sizeOf(keyNumber), send, backups };
    }
    case "HEAD": {
      const keyNumber = prepared();
      const key = keyOf(keyNumber);
      return {
        op,
        key,
        body: null,
        sizeBytes: content.sizeOf(keyNumber),
        backups,
        send: (replica, options) => transportFor(replica).headObject(key, options),
      };
    }
    case "PUT":
    case "MULTIPART": {
      const keyNumber = newKey();
      const key = keyOf(keyNumber);
      const body = content.bodyFor(keyNumber);
      const send: SendAttempt =
        op === "PUT"
          ? (replica, options) => transportFor(replica).putObject(key, body, options)
          : async (replica, options) => {
              const upload = await uploadInParts(
                transportFor(replica),
                key,
                body,
                workload.multipartPartBytes,
                workload.multipartPartsInFlight,
                options.signal ? { signal: options.signal } : {},
              );
              // A backup's twin that lost was cancelled: its parts measured nothing.
              if (!options.signal?.aborted) recordParts(run, key, replica, origin, upload.parts);
              return upload.outcome;
            };
      return { op, key, body, sizeBytes: body.byteLength, send, backups };
    }
    case "COPY": {
      const sourceNumber = prepared();
      const source = keyOf(sourceNumber);
      const key = keyOf(newKey());
      return {
        op,
        key,
        body: null,
        sizeBytes: content.sizeOf(sourceNumber),
        backups,
        send: (replica, options) => transportFor(replica).copyObject(source, key, options),
      };
    }
    case "DELETE": {
      const written = Math.max(1, Atomics.load(mix.newKeys, 0));
      const key = keyOf(newKeyFirst + Math.floor(mix.random.next() * written));
      return {
        op,
        key,
        body: null,
        sizeBytes: 0,
        backups,
        send: (replica, options) => transportFor(replica).deleteObject(key, options),
      };
    }
    // The buckets these make and leave (or make and fail to delete, a stop cutting the delete
    // off) are removed by the run after the phase, by name (`taillab-<run>-w…`, see
    // newBucketName): a worker may be terminated before it could.
    case "CREATE_BUCKET": {
      const name = newBucketName(mix);
      return {
        op,
        key: name,
        body: null,
        sizeBytes: 0,
        backups,
        send: (replica, options) => transportFor(replica).createBucket(name, options),
      };
    }
    case "DELETE_BUCKET": {
      // Its own bucket, made just before and not measured, so every delete has one to delete.
      const name = newBucketName(mix);
      return {
        op,
        key: name,
        body: null,
        sizeBytes: 0,
        backups,
        send: async (replica, options) => {
          const transport = transportFor(replica);
          const made = await transport.createBucket(name, { signal: run.signal });
          if (made.error !== null) return made;
          return transport.deleteBucket(name, options);
        },
      };
    }
    case "LIST_BUCKETS":
      return {
        op,
        key: "",
        body: null,
        sizeBytes: 0,
        backups,
        send: (replica, options) => transportFor(replica).listBuckets(options),
      };
    case "DELETE_OBJECTS": {
      // A batch of the workload's new keys, whether written yet or not: S3 deletes what exists.
      const written = Math.max(1, Atomics.load(mix.newKeys, 0));
      const first = newKeyFirst + Math.floor(mix.random.next() * written);
      const keys = Array.from({ length: DELETE_BATCH_KEYS }, (_, index) => keyOf(first + index));
      return {
        op,
        key: keys[0] as string,
        body: null,
        sizeBytes: 0,
        backups,
        send: (replica, options) => transportFor(replica).deleteObjects(keys, options),
      };
    }
    case "UPLOAD_PART":
      throw new Error("parts are sent by multipart uploads, not drawn from the mix");
    case "LIST": {
      const query = { prefix: init.keyPrefix, maxKeys: workload.listPageSize };
      return {
        op,
        key: init.keyPrefix,
        body: null,
        sizeBytes: 0,
        backups,
        send: (replica, options) => transportFor(replica).listObjects(query, options),
      };
    }
  }
}

/**
 * Each part of a multipart upload as a request of its own (UPLOAD_PART), beside the whole
 * upload's latency (MULTIPART), meant to start when it was sent. Parts of an upload cut short by
 * a stop are not counted.
 */
function recordParts(
  run: PhaseRun,
  key: string,
  replica: number,
  origin: RequestOrigin,
  parts: readonly RequestOutcome[],
): void {
  if (run.signal.aborted) return;
  for (const outcome of parts) {
    recordRequest(
      run,
      "UPLOAD_PART",
      key,
      { ...origin, intendedStartUs: outcome.readyUs },
      {
        attempts: [{ attempt: 1, replica, outcome, cancelled: false }],
        winner: outcome.error === null ? 0 : null,
        hedgeDelayMs: null,
      },
    );
  }
}

/** Keys per DeleteObjects batch in a workload. */
const DELETE_BATCH_KEYS = 100;

/**
 * `taillab-<runId>-w<worker>-<n>` (workloadBucketName): unique to the run and the worker, and
 * what the run removes after the phase.
 */
function newBucketName(mix: MixState): string {
  const runId = init.keyPrefix.split("/").at(-2) ?? "run";
  mix.bucketNumber += 1;
  return workloadBucketName(runId, init.workerIndex, mix.bucketNumber);
}

async function runRequest(
  run: PhaseRun,
  index: number,
  intendedStartUs: number,
  client: number,
): Promise<void> {
  const mix = run.mix;
  const origin: RequestOrigin = {
    intendedStartUs,
    client,
    measured: run.command.measured && (mix === null || intendedStartUs >= mix.order.warmupEndUs),
  };
  if (origin.measured) run.probe.noteStart(intendedStartUs, clock(), run.command.schedule !== null);
  const planned = mix ? planMixRequest(run, mix, origin) : planPhaseRequest(run.command, index);
  const { withBackups, single } = setup.executorsOn(run.signal);
  const executor = planned.backups ? withBackups : single;
  const executing = executor.execute(planned.send, requestClassOf(planned.op, planned.sizeBytes));
  requestsInFlight.add(executing);
  const result = await executing.finally(() => requestsInFlight.delete(executing));
  // A request cut short by a stop (or the phase's end) measured nothing and says nothing of the
  // server's health, but it may have reached the server: it is recorded, and counted apart.
  if (!(run.signal.aborted && result.winner === null)) noteHealth(run, result);
  if (mix) {
    const winner = result.winner === null ? null : result.attempts[result.winner];
    if (winner) Atomics.add(mix.movedBytes, 0, BigInt(winner.outcome.bytes));
  }
  recordRequest(run, planned.op, planned.key, origin, result);
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
    await backOff(run);
    if (phaseIsOver(run)) return;
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

function mixState(order: MixOrder): MixState {
  const { workload } = order;
  const random = createRandom(workload.seed * 7919 + init.workerIndex);
  const parse = <T>(result: TextParseResult<T>): T => {
    if (!result.ok) throw new Error(englishOf(result.reason));
    return result.value;
  };
  const operations = createOperationChooser(parse(parseOperationMix(workload.ops)), random);
  const keys = createKeyChooser(
    parse(parseKeyChoice(workload.keys)),
    workload.prepareObjects,
    random,
  );
  const ranges =
    workload.range === undefined
      ? null
      : createRangeChooser(parse(parseRangeChoice(workload.range)), random);
  return {
    order,
    movedBytes: new BigInt64Array(order.movedBytes),
    bucketNumber: 0,
    chooseOperation: () => operationOf(operations.next()),
    choosePreparedKey: () => keys.next(),
    chooseRange: ranges ? (sizeBytes) => ranges.nextRange(sizeBytes) : null,
    newKeys: new Int32Array(order.newKeys),
    random,
  };
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
  const ended = new AbortController();
  const signal = AbortSignal.any([stopSignal, ended.signal]);
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
    mix: command.mix ? mixState(command.mix) : null,
    probe: new ClientProbe(clock, init.workerIndex),
    reports: 0,
  };
  const reporter = setInterval(() => {
    // Another worker found the server lost: this one's requests in flight are cut off too.
    if (health.lost) run.end();
    report(run, false);
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
    clearInterval(reporter);
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
