import {
  addToStallTail,
  INTERVAL_US,
  MISSED_START_TOLERANCE_MS,
  STALL_PROBE_INTERVAL_MS,
  STALL_PROBE_TOLERANCE_MS,
  emptySampleCounts,
  requestStallUs,
  type ClientSample,
  type StallTail,
} from "@taillab/core";
import { monitorEventLoopDelay, type ELDHistogram } from "node:perf_hooks";

/**
 * A worker's own health while a phase runs (core's client-health.ts defines the figures): a probe
 * timer that finds the stalls of the worker's event loop, the event-loop delay histogram, the
 * thread's CPU time, and the starts, lags and sheds of its requests, gathered per second of the
 * run clock and handed over with each report.
 */

/** monitorEventLoopDelay's sampling step; its figures include it, so it is taken off. */
const DELAY_RESOLUTION_MS = 10;
/** Stalls kept for requests still in flight: a request out longer sees only the newest. */
const STALLS_KEPT = 1 << 14;

/**
 * This thread's CPU time (Node 23.9 on); a Node without it (an older Electron) counts none, so
 * the CPU reasons stay silent there rather than count the whole process once per worker.
 */
function threadCpu(): { user: number; system: number } {
  return typeof process.threadCpuUsage === "function"
    ? process.threadCpuUsage()
    : { user: 0, system: 0 };
}

export interface ClientProbeReport {
  samples: ClientSample[];
  /** Per operation: tail bucket, count, stall µs (core's StallTail). */
  stallTails: { op: string; buckets: [number, [number, number]][] }[];
}

export class ClientProbe {
  private readonly clock: () => number;
  private readonly worker: number;
  private readonly delay: ELDHistogram;
  private readonly stallStarts = new Float64Array(STALLS_KEPT);
  private readonly stallEnds = new Float64Array(STALLS_KEPT);
  /** Stalls in the arrays; when full, the older half is dropped. */
  private stallCount = 0;
  private readonly probeTimer: NodeJS.Timeout;
  private probeDueUs = 0;
  /** Whether requests are in flight: a worker without any has no stall to find. */
  private readonly hasWork: () => boolean;
  /** The probe and the delay monitor are off while the worker has nothing in flight. */
  private dormant = false;
  private cpuAt = threadCpu();
  private readonly seconds = new Map<number, ClientSample>();
  private readonly stallTails = new Map<string, StallTail>();

  constructor(clock: () => number, worker: number, hasWork: () => boolean) {
    this.clock = clock;
    this.worker = worker;
    this.hasWork = hasWork;
    this.delay = monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS });
    this.delay.enable();
    // One timer, rearmed (refresh) after each run: the probe runs 200 times a second.
    this.probeTimer = setTimeout(() => this.probe(), STALL_PROBE_INTERVAL_MS);
    this.probeTimer.unref();
    this.probeDueUs = this.clock() + STALL_PROBE_INTERVAL_MS * 1000;
  }

  /** Requests started, answered or shed since the last take. */
  get hasNews(): boolean {
    return this.seconds.size > 0;
  }

  /** A measured request leaves (or is claimed from the schedule) at `nowUs`. */
  noteStart(intendedStartUs: number, nowUs: number, openLoop: boolean): void {
    if (this.dormant) this.wake(nowUs);
    const second = this.secondAt(nowUs);
    second.starts += 1;
    if (!openLoop) return;
    const lateUs = nowUs - intendedStartUs;
    if (lateUs > MISSED_START_TOLERANCE_MS * 1000) second.missedStarts += 1;
    second.behindUs = Math.max(second.behindUs, lateUs);
  }

  /** An arrival dropped because the backlog was past its bound. */
  noteShed(nowUs: number): void {
    this.secondAt(nowUs).shed += 1;
  }

  /** The client stall of a request that waited on the server from `sentUs` to `firstByteUs` (core's requestStallUs). */
  stallWithin(sentUs: number, firstByteUs: number): number {
    // A stall the probe has not run since is still going on: answers taken in it count it.
    this.catchUp();
    return requestStallUs(this.stallStarts, this.stallEnds, this.stallCount, sentUs, firstByteUs);
  }

  /** A measured request answered at `endUs`. */
  noteAnswer(op: string, endUs: number, latencyUs: number, stallUs: number): void {
    const second = this.secondAt(endUs);
    second.requestStallUs += stallUs;
    second.requestLatencyUs += latencyUs;
    let tail = this.stallTails.get(op);
    if (!tail) {
      tail = new Map();
      this.stallTails.set(op, tail);
    }
    addToStallTail(tail, latencyUs, stallUs);
  }

  /** What was measured since the last call; CPU and delay since then go to the current second. */
  take(): ClientProbeReport {
    const now = this.clock();
    const second = this.secondAt(now);
    const cpuAt = threadCpu();
    second.cpuUs += cpuAt.user - this.cpuAt.user + (cpuAt.system - this.cpuAt.system);
    this.cpuAt = cpuAt;
    if (this.delay.count > 0) {
      const p99Us = this.delay.percentile(99) / 1000 - DELAY_RESOLUTION_MS * 1000;
      second.eventLoopDelayP99Us = Math.max(second.eventLoopDelayP99Us, Math.max(0, p99Us));
    }
    this.delay.reset();
    const samples = [...this.seconds.values()];
    this.seconds.clear();
    const stallTails = [...this.stallTails].map(([op, tail]) => ({ op, buckets: [...tail] }));
    this.stallTails.clear();
    return { samples, stallTails };
  }

  stop(): void {
    clearTimeout(this.probeTimer);
    this.delay.disable();
  }

  private probe(): void {
    this.catchUp();
    // Nothing in flight: no request can be held by a stall, so the probe and the delay monitor
    // rest (a live lab's idle worker woke 300 times a second for them) until the next start.
    if (!this.hasWork()) {
      this.dormant = true;
      this.delay.disable();
      return;
    }
    this.probeDueUs = this.clock() + STALL_PROBE_INTERVAL_MS * 1000;
    this.probeTimer.refresh();
  }

  /** A request starts on a dormant worker: the probe runs again from now. */
  private wake(nowUs: number): void {
    this.dormant = false;
    this.delay.enable();
    this.probeDueUs = nowUs + STALL_PROBE_INTERVAL_MS * 1000;
    this.probeTimer.refresh();
  }

  /**
   * The loop could not run the probe from when it was due until now: past tolerance, that is a
   * stall, and the probe is due again from now (so stalls never overlap).
   */
  private catchUp(): void {
    const nowUs = this.clock();
    if (nowUs - this.probeDueUs <= STALL_PROBE_TOLERANCE_MS * 1000) return;
    this.addStall(this.probeDueUs, nowUs);
    this.probeDueUs = nowUs;
  }

  private addStall(startUs: number, endUs: number): void {
    if (this.stallCount === STALLS_KEPT) {
      const half = STALLS_KEPT / 2;
      this.stallStarts.copyWithin(0, half);
      this.stallEnds.copyWithin(0, half);
      this.stallCount = half;
    }
    this.stallStarts[this.stallCount] = startUs;
    this.stallEnds[this.stallCount] = endUs;
    this.stallCount += 1;
  }

  private secondAt(atUs: number): ClientSample {
    const index = Math.floor(atUs / INTERVAL_US);
    let sample = this.seconds.get(index);
    if (!sample) {
      sample = { index, worker: this.worker, cpuUs: 0, ...emptySampleCounts() };
      this.seconds.set(index, sample);
    }
    return sample;
  }
}
