import {
  CLIENT_HEALTH_VERSION,
  type ClientBottleneck,
  type ClientFigures,
  type ClientHealth,
  type ClientSecond,
  type ClientVerdict,
  type PhaseSummary,
} from "@taillab/api";
import { INTERVAL_US } from "./phase-account.ts";
import { tailBucketOf } from "./tail-breakdown.ts";

/**
 * Whether TailLab's own client kept up: the one definition of a client stall, of the figures a
 * span (a second or a phase) is judged by, and of the verdict.
 *
 * Client stall: each worker runs a probe timer every STALL_PROBE_INTERVAL_MS; when it runs more
 * than STALL_PROBE_TOLERANCE_MS after it was due, the worker's event loop could not run from the
 * moment it was due until it ran (another callback held it, or the thread was not scheduled) —
 * that interval is a stall. A request's client stall is the part of its wait on the server (its
 * winning attempt, sent → first byte) inside the stall that ended as its answer was taken
 * (requestStallUs): an answer that arrived meanwhile could not be taken, so that time is the
 * client's, not the server's. It is an upper bound of the client's share (the answer may have
 * come late in the stall), resolved to about one probe interval.
 */
export const STALL_PROBE_INTERVAL_MS = 5;
/** Timer jitter of an idle loop is about 1 ms; a probe later than this found the loop held. */
export const STALL_PROBE_TOLERANCE_MS = 2;

/** When a span's client is the bottleneck: each limit and why it is there. */
export const CLIENT_LIMITS = {
  /**
   * Client threads' CPU over the cores the process may use: at 90 % a request's callbacks wait
   * for a core, and a busier client cannot go faster, so the run measures the client.
   */
  cpuShare: 0.9,
  /**
   * One worker thread's CPU over one core: a thread cannot use more than one, so at 90 % its
   * clients wait on each other in its event loop (more workers, or fewer clients, help).
   */
  workerCpu: 0.9,
  /**
   * Client stall over the requests' latency: when a tenth of what is measured is time the worker
   * could not run, the figures (the tail first) describe the client as much as the server.
   */
  stallShare: 0.1,
  /**
   * Open loop: started late over started; past 1 % the arrivals are not the schedule that was
   * asked for, and the latency counted from it grows with the backlog.
   */
  missedShare: 0.01,
} as const;

/** What to do about each reason, in the order worth trying. */
export type ClientAdvice = "fewer-clients" | "more-workers" | "server-elsewhere";

const ADVICE: Record<ClientBottleneck, ClientAdvice[]> = {
  cpu: ["server-elsewhere", "fewer-clients"],
  "clients-per-worker": ["more-workers", "fewer-clients"],
  "event-loop-delay": ["server-elsewhere", "fewer-clients", "more-workers"],
  "schedule-behind": ["fewer-clients", "more-workers"],
};

export function clientVerdict(figures: ClientFigures): ClientVerdict {
  const reasons: ClientBottleneck[] = [];
  if (figures.cpuCores >= CLIENT_LIMITS.cpuShare * figures.availableCores) reasons.push("cpu");
  if (figures.busiestWorkerCpu >= CLIENT_LIMITS.workerCpu) reasons.push("clients-per-worker");
  if (figures.stallShare >= CLIENT_LIMITS.stallShare) reasons.push("event-loop-delay");
  if (figures.starts > 0 && figures.missedStarts / figures.starts >= CLIENT_LIMITS.missedShare) {
    reasons.push("schedule-behind");
  }
  return { keptUp: reasons.length === 0, reasons };
}

/** The advice for a verdict's reasons, each once, most useful first. */
export function clientAdvice(verdict: ClientVerdict): ClientAdvice[] {
  return [...new Set(verdict.reasons.flatMap((reason) => ADVICE[reason]))];
}

/**
 * The client stall of a request that waited on the server from `sentUs` until its answer was
 * taken at `firstByteUs`: the part of that wait inside the worker's stall that was still going
 * on (within the probe's tolerance) when the answer was taken. An answer that arrived in an
 * earlier stall was taken as that one ended, so only the last one delayed it. `starts` and `ends`
 * are the worker's first `count` stalls, in time order, not overlapping.
 */
export function requestStallUs(
  starts: ArrayLike<number>,
  ends: ArrayLike<number>,
  count: number,
  sentUs: number,
  firstByteUs: number,
): number {
  // The last stall that started before the answer was taken.
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((starts[middle] as number) < firstByteUs) low = middle + 1;
    else high = middle;
  }
  const last = low - 1;
  if (last < 0) return 0;
  const endUs = ends[last] as number;
  if (endUs < firstByteUs - STALL_PROBE_TOLERANCE_MS * 1000) return 0;
  return Math.max(0, Math.min(firstByteUs, endUs) - Math.max(sentUs, starts[last] as number));
}

/**
 * What one worker measured in one second of the run clock (index = second), handed to the
 * coordinator as it goes; a second may come in several parts, which add up.
 */
export interface ClientSample {
  index: number;
  worker: number;
  cpuUs: number;
  /** Event-loop delay p99 of the part, µs. */
  eventLoopDelayP99Us: number;
  /** Of the requests that ended in it: their client stall and their latency. */
  requestStallUs: number;
  requestLatencyUs: number;
  starts: number;
  missedStarts: number;
  behindUs: number;
  shed: number;
}

/** Slowest-requests' stall per tail bucket (tailBucketOf latency): bucket, count, stall µs, … */
export type StallTail = Map<number, [number, number]>;

export function addToStallTail(tail: StallTail, latencyUs: number, stallUs: number): void {
  const bucket = tailBucketOf(latencyUs);
  const sums = tail.get(bucket);
  if (sums) {
    sums[0] += 1;
    sums[1] += stallUs;
  } else {
    tail.set(bucket, [1, stallUs]);
  }
}

/**
 * Mean stall (ms) of the slowest `fraction` of the requests, chosen by rank as tailBreakdown
 * chooses them: whole buckets from the slowest down, and the share needed of the bucket where the
 * rank falls.
 */
function tailStallMs(tail: StallTail, fraction: number): number {
  let requests = 0;
  for (const [count] of tail.values()) requests += count;
  const wanted = Math.ceil(requests * fraction);
  let taken = 0;
  let stallUs = 0;
  for (const bucket of [...tail.keys()].sort((a, b) => b - a)) {
    if (taken >= wanted) break;
    const [count, stall] = tail.get(bucket) as [number, number];
    const needed = Math.min(count, wanted - taken);
    stallUs += (stall * needed) / count;
    taken += needed;
  }
  return taken > 0 ? Math.round(stallUs / taken) / 1000 : 0;
}

/** A sample's counts, all zero: where a worker's or the coordinator's second starts from. */
export function emptySampleCounts(): Omit<ClientSample, "index" | "worker" | "cpuUs"> {
  return {
    eventLoopDelayP99Us: 0,
    requestStallUs: 0,
    requestLatencyUs: 0,
    starts: 0,
    missedStarts: 0,
    behindUs: 0,
    shed: 0,
  };
}

/** One second over every worker: a sample's counts, and each worker's CPU apart. */
type SecondSums = Omit<ClientSample, "index" | "worker" | "cpuUs"> & {
  /** worker → its CPU µs in the second. */
  cpuUs: Map<number, number>;
};

export interface ClientHealthSetting {
  availableCores: number;
  workers: number;
  clients: number;
  loop: "open" | "closed";
  /** The live lab bounds its backlog: arrivals past it are shed. */
  sheds: boolean;
}

/** The run's client figures of one phase: workers' samples by second, and the tail's stall. */
export class ClientHealthAccount {
  private readonly seconds = new Map<number, SecondSums>();
  private readonly changed = new Set<number>();
  private readonly stallTails = new Map<string, StallTail>();

  private readonly setting: ClientHealthSetting;

  constructor(setting: ClientHealthSetting) {
    this.setting = setting;
  }

  add(sample: ClientSample): void {
    let sums = this.seconds.get(sample.index);
    if (!sums) {
      sums = { ...emptySampleCounts(), cpuUs: new Map() };
      this.seconds.set(sample.index, sums);
    }
    sums.cpuUs.set(sample.worker, (sums.cpuUs.get(sample.worker) ?? 0) + sample.cpuUs);
    sums.eventLoopDelayP99Us = Math.max(sums.eventLoopDelayP99Us, sample.eventLoopDelayP99Us);
    sums.requestStallUs += sample.requestStallUs;
    sums.requestLatencyUs += sample.requestLatencyUs;
    sums.starts += sample.starts;
    sums.missedStarts += sample.missedStarts;
    sums.behindUs = Math.max(sums.behindUs, sample.behindUs);
    sums.shed += sample.shed;
    this.changed.add(sample.index);
  }

  /** An operation's slowest requests' stall, by tail bucket (a worker's delta). */
  addStallTail(op: string, entries: Iterable<[number, [number, number]]>): void {
    let tail = this.stallTails.get(op);
    if (!tail) {
      tail = new Map();
      this.stallTails.set(op, tail);
    }
    for (const [bucket, [count, stallUs]] of entries) {
      const sums = tail.get(bucket);
      if (sums) {
        sums[0] += count;
        sums[1] += stallUs;
      } else {
        tail.set(bucket, [count, stallUs]);
      }
    }
  }

  /** The seconds that changed since the last call, in time order (a live view's figures). */
  takeChangedSeconds(): ClientSecond[] {
    const changed = [...this.changed].sort((a, b) => a - b);
    this.changed.clear();
    return changed.map((index) => this.second(index));
  }

  /**
   * A phase's health for `op`: its figures over every second, and the stall of its slowest 1 %
   * and 0.1 % given its p99 and p99.9 (µs; null without a successful request).
   */
  health(op: string, tailUs: { p99: number; p999: number } | null): ClientHealth {
    const indexes = [...this.seconds.keys()].sort((a, b) => a - b);
    const seconds = indexes.map((index) => this.second(index));
    const all = [...this.seconds.values()];
    const wallSeconds = Math.max(1, indexes.length);
    const stallTail = this.stallTails.get(op);
    const tailStall =
      tailUs && stallTail
        ? { p99: tailStallMs(stallTail, 0.01), p999: tailStallMs(stallTail, 0.001) }
        : null;
    const overallShare = shareOf(
      sum(all, (each) => each.requestStallUs),
      sum(all, (each) => each.requestLatencyUs),
    );
    // The tail's stall is judged against the tail: the slowest 1 % is where a stall shows first.
    const tailShare =
      tailStall && tailUs && tailUs.p99 > 0 ? (tailStall.p99 * 1000) / tailUs.p99 : 0;
    const workerCpuUs = new Map<number, number>();
    for (const each of all) {
      for (const [worker, cpuUs] of each.cpuUs) {
        workerCpuUs.set(worker, (workerCpuUs.get(worker) ?? 0) + cpuUs);
      }
    }
    const figures: ClientFigures = {
      cpuCores: round3(sum(all, (each) => total(each.cpuUs)) / (wallSeconds * INTERVAL_US)),
      availableCores: this.setting.availableCores,
      busiestWorkerCpu: round3(Math.max(0, ...workerCpuUs.values()) / (wallSeconds * INTERVAL_US)),
      eventLoopDelayP99Ms: Math.max(0, ...seconds.map((each) => each.eventLoopDelayP99Ms)),
      stallShare: round3(Math.max(overallShare, tailShare)),
      starts: sum(all, (each) => each.starts),
      missedStarts: sum(all, (each) => each.missedStarts),
      behindMs: Math.max(0, ...seconds.map((each) => each.behindMs)),
      shed: sum(all, (each) => each.shed),
    };
    return {
      version: CLIENT_HEALTH_VERSION,
      verdict: clientVerdict(figures),
      figures,
      workers: this.setting.workers,
      clientsPerWorker: round3(this.setting.clients / this.setting.workers),
      tailStallMs: tailStall,
      arrivals: this.setting.loop === "open" ? (this.setting.sheds ? "shed" : "kept") : null,
      seconds,
    };
  }

  private second(index: number): ClientSecond {
    const sums = this.seconds.get(index) as SecondSums;
    const figures: ClientFigures = {
      cpuCores: round3(total(sums.cpuUs) / INTERVAL_US),
      availableCores: this.setting.availableCores,
      busiestWorkerCpu: round3(Math.max(0, ...sums.cpuUs.values()) / INTERVAL_US),
      eventLoopDelayP99Ms: round3(sums.eventLoopDelayP99Us / 1000),
      stallShare: round3(shareOf(sums.requestStallUs, sums.requestLatencyUs)),
      starts: sums.starts,
      missedStarts: sums.missedStarts,
      behindMs: sums.behindUs / 1000,
      shed: sums.shed,
    };
    return { startMs: (index * INTERVAL_US) / 1000, ...figures, verdict: clientVerdict(figures) };
  }
}

/**
 * Several runs of a phase (a point's repetitions) as one: CPU weighted by their seconds, the worst
 * of each other figure, counts added, the verdict drawn afresh; undefined when none has health.
 */
export function mergeClientHealth(
  healths: readonly (ClientHealth | undefined)[],
): ClientHealth | undefined {
  const known = healths.filter((health): health is ClientHealth => health !== undefined);
  const [first] = known;
  if (!first || known.length === 1) return first;
  const figures = known.map((health) => health.figures);
  const weights = known.map((health) => Math.max(1, health.seconds.length));
  const weightSum = weights.reduce((total, weight) => total + weight, 0);
  const max = (of: (each: ClientFigures) => number) => Math.max(...figures.map(of));
  const add = (of: (each: ClientFigures) => number) => sum(figures, of);
  const merged: ClientFigures = {
    cpuCores: round3(
      figures.reduce((total, each, index) => total + each.cpuCores * (weights[index] ?? 1), 0) /
        weightSum,
    ),
    availableCores: first.figures.availableCores,
    busiestWorkerCpu: max((each) => each.busiestWorkerCpu),
    eventLoopDelayP99Ms: max((each) => each.eventLoopDelayP99Ms),
    stallShare: max((each) => each.stallShare),
    starts: add((each) => each.starts),
    missedStarts: add((each) => each.missedStarts),
    behindMs: max((each) => each.behindMs),
    shed: add((each) => each.shed),
  };
  const tails = known.flatMap((health) => (health.tailStallMs ? [health.tailStallMs] : []));
  return {
    ...first,
    verdict: clientVerdict(merged),
    figures: merged,
    tailStallMs:
      tails.length > 0
        ? {
            p99: Math.max(...tails.map((tail) => tail.p99)),
            p999: Math.max(...tails.map((tail) => tail.p999)),
          }
        : null,
    seconds: known.flatMap((health) => health.seconds),
  };
}

/**
 * "Where the tail went" with the client stall taken out of "server": the slowest 1 % or 0.1 %'s
 * server time left, and their client stall (null when the phase has no client health).
 */
export function serverAndStall(
  phase: PhaseSummary,
  share: "p99" | "p999",
): { serverMs: number; clientStallMs: number | null } {
  const serverMs = phase.tail?.[share].serverMs ?? 0;
  const stall = phase.client?.tailStallMs?.[share];
  if (stall === undefined) return { serverMs, clientStallMs: null };
  const clientStallMs = Math.min(stall, serverMs);
  return { serverMs: Math.round((serverMs - clientStallMs) * 1000) / 1000, clientStallMs };
}

/** The first second of `seconds` whose client was the bottleneck, or null. */
export function firstClientBoundSecond(seconds: readonly ClientSecond[]): ClientSecond | null {
  return seconds.find((second) => !second.verdict.keptUp) ?? null;
}

/** A stretch of the run clock, ms: seconds in a row whose client was the bottleneck. */
export interface ClientBoundSpan {
  fromMs: number;
  toMs: number;
}

/**
 * The stretches of `seconds` whose client was the bottleneck, seconds in a row joined (in time
 * order; several workers' or shards' entries for one second count once): what percentiles over
 * time mark, so a tail drawn there is read as the client's.
 */
export function clientBoundSpans(seconds: readonly ClientSecond[]): ClientBoundSpan[] {
  const starts = [
    ...new Set(seconds.filter((second) => !second.verdict.keptUp).map((s) => s.startMs)),
  ].sort((a, b) => a - b);
  const lengthMs = INTERVAL_US / 1000;
  const spans: ClientBoundSpan[] = [];
  for (const startMs of starts) {
    const last = spans.at(-1);
    if (last && startMs <= last.toMs) last.toMs = Math.max(last.toMs, startMs + lengthMs);
    else spans.push({ fromMs: startMs, toMs: startMs + lengthMs });
  }
  return spans;
}

function shareOf(part: number, whole: number): number {
  return whole > 0 ? part / whole : 0;
}

function total(values: Map<number, number>): number {
  let result = 0;
  for (const value of values.values()) result += value;
  return result;
}

function sum<T>(items: readonly T[], of: (item: T) => number): number {
  return items.reduce((result, item) => result + of(item), 0);
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
