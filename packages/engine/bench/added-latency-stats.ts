import { exactPercentile } from "@taillab/core";

/**
 * Tool-added latency: what a client measured minus what the server says it spent
 * (x-taillab-service-time-us), request by request, so the server's own jitter is not counted as
 * the tool's.
 */
export interface TimedRequests {
  /** Client-measured latency of each request. */
  latencyUs: ArrayLike<number>;
  /** The server's stamp of the same request (same index). */
  serviceTimeUs: ArrayLike<number>;
}

export interface AddedLatencyStats {
  requests: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  serviceTimeP50Ms: number;
  addedP50Ms: number;
  addedP99Ms: number;
}

export function addedLatencyStats(timed: TimedRequests): AddedLatencyStats {
  const count = timed.latencyUs.length;
  if (count === 0 || timed.serviceTimeUs.length !== count) {
    throw new Error(
      `added latency: expected one stamp per request, got ${timed.serviceTimeUs.length} stamps for ${count} requests`,
    );
  }
  const latencyMs: number[] = [];
  const serviceTimeMs: number[] = [];
  const addedMs: number[] = [];
  for (let index = 0; index < count; index++) {
    const latency = (timed.latencyUs[index] as number) / 1000;
    const serviceTime = (timed.serviceTimeUs[index] as number) / 1000;
    latencyMs.push(latency);
    serviceTimeMs.push(serviceTime);
    addedMs.push(latency - serviceTime);
  }
  for (const values of [latencyMs, serviceTimeMs, addedMs]) values.sort((a, b) => a - b);
  return {
    requests: count,
    latencyP50Ms: exactPercentile(latencyMs, 50),
    latencyP99Ms: exactPercentile(latencyMs, 99),
    serviceTimeP50Ms: exactPercentile(serviceTimeMs, 50),
    addedP50Ms: exactPercentile(addedMs, 50),
    addedP99Ms: exactPercentile(addedMs, 99),
  };
}
