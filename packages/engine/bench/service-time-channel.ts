import { BroadcastChannel, threadId } from "node:worker_threads";

/**
 * The link between service-time-tap.ts, preloaded into the client worker threads, and the
 * bench's main thread: the testbed's service-time stamp of each response, keyed by request, and
 * the sending thread's CPU time with each batch.
 */
const CHANNEL_NAME = "taillab-bench:service-time";

export interface ServiceTimeStamp {
  method: string;
  /** The request path as sent: /bucket/encoded-key. */
  path: string;
  serviceTimeUs: number;
}

/**
 * The stamps of one I/O callback, and every CPU_READ_EVERY batches the sending thread's CPU time
 * (µs) once they were read: a read costs a system call, and one per batch would add to the very
 * CPU it measures.
 */
interface StampBatch {
  threadId: number;
  threadCpuUs: number | null;
  stamps: ServiceTimeStamp[];
}

const CPU_READ_EVERY = 32;

/** Worker side: sends one batch of stamps. */
export function openStampSender(): { send(stamps: ServiceTimeStamp[]): void } {
  const channel = new BroadcastChannel(CHANNEL_NAME);
  // The tap must never keep a worker alive.
  channel.unref();
  let batches = 0;
  const threadCpuUs = () => {
    const cpu = process.threadCpuUsage();
    return cpu.user + cpu.system;
  };
  return {
    send: (stamps) => {
      batches += 1;
      const batch: StampBatch = {
        threadId,
        threadCpuUs: batches % CPU_READ_EVERY === 1 ? threadCpuUs() : null,
        stamps,
      };
      channel.postMessage(batch);
    },
  };
}

export interface ServiceTimeCollector {
  /** The stamp of the response to `method path`, if it has arrived. */
  stampOf(method: string, path: string): number | undefined;
  /** Resolves once `count` stamps have arrived, or after `timeoutMs` with what there is. */
  waitForStamps(count: number, timeoutMs: number): Promise<void>;
  /**
   * The sending threads' CPU time per `method` response, µs: from the first reading with a batch
   * holding one to the last, over the responses in between (start-up and wind-down left out);
   * NaN without two such readings.
   */
  threadCpuUsPer(method: string): number;
  close(): void;
}

/**
 * Per thread and method: the CPU time at its first and last reading, and the responses counted
 * after the first up to the last (the CPU read with a batch follows that batch's responses).
 */
interface CpuSpan {
  firstCpuUs: number;
  lastCpuUs: number;
  responsesToLast: number;
  responsesSinceFirst: number;
}

/** Main-thread side: gathers every stamp the taps send until closed. */
export function collectServiceTimes(): ServiceTimeCollector {
  const channel = new BroadcastChannel(CHANNEL_NAME);
  const stamps = new Map<string, number>();
  const cpuSpans = new Map<string, CpuSpan>();
  const stampKey = (method: string, path: string) => `${method} ${path}`;
  const noteCpu = (batch: StampBatch, method: string, responses: number) => {
    const spanKey = `${batch.threadId} ${method}`;
    const span = cpuSpans.get(spanKey);
    const cpuUs = batch.threadCpuUs;
    if (!span) {
      if (cpuUs === null) return;
      cpuSpans.set(spanKey, {
        firstCpuUs: cpuUs,
        lastCpuUs: cpuUs,
        responsesToLast: 0,
        responsesSinceFirst: 0,
      });
      return;
    }
    span.responsesSinceFirst += responses;
    if (cpuUs === null) return;
    span.lastCpuUs = cpuUs;
    span.responsesToLast = span.responsesSinceFirst;
  };
  let onArrival = () => {};
  channel.onmessage = (event) => {
    const batch = (event as { data: StampBatch }).data;
    const perMethod = new Map<string, number>();
    for (const stamp of batch.stamps) {
      stamps.set(stampKey(stamp.method, stamp.path), stamp.serviceTimeUs);
      perMethod.set(stamp.method, (perMethod.get(stamp.method) ?? 0) + 1);
    }
    for (const [method, responses] of perMethod) noteCpu(batch, method, responses);
    onArrival();
  };
  return {
    stampOf: (method, path) => stamps.get(stampKey(method, path)),
    threadCpuUsPer: (method) => {
      let cpuUs = 0;
      let responses = 0;
      for (const [spanKey, span] of cpuSpans) {
        if (!spanKey.endsWith(` ${method}`)) continue;
        cpuUs += span.lastCpuUs - span.firstCpuUs;
        responses += span.responsesToLast;
      }
      return responses > 0 ? cpuUs / responses : Number.NaN;
    },
    waitForStamps: (count, timeoutMs) =>
      new Promise<void>((resolve) => {
        const finish = () => {
          clearTimeout(timer);
          onArrival = () => {};
          resolve();
        };
        const timer = setTimeout(finish, timeoutMs);
        onArrival = () => {
          if (stamps.size >= count) finish();
        };
        onArrival();
      }),
    close: () => channel.close(),
  };
}
