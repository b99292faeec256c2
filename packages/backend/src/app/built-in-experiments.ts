import { EMBEDDED_TESTBED_ENDPOINT_ID, type Experiment } from "@taillab/api";
import { expandPreset } from "@taillab/core";

/** When the built-ins last changed: shown as their "updated" date. */
const UPDATED_AT = "2026-11-22T00:00:00.000Z";

function presetPoints(name: "size-sweep") {
  const preset = expandPreset(name);
  if (preset.kind !== "sweep") throw new Error(`preset ${name} is not a sweep`);
  return preset.points;
}

// The CLI's preset, point for point: 512 × 8 KiB … 2 × 2 MiB by one client.
const SIZE_SWEEP_POINTS = presetPoints("size-sweep");

/**
 * The labs, replayed on the embedded testbed so they run with nothing installed, each in well
 * under a minute on a 2-core laptop. They can be run and copied (to point a copy at a real
 * server), not changed. The tail-latency lab comes first: the list's first Run button (a few
 * Tabs from the skip link) is the one a class presses.
 */
export const BUILT_IN_EXPERIMENTS: readonly Experiment[] = [
  {
    id: "builtin-tail-modes",
    builtIn: true,
    updatedAt: UPDATED_AT,
    name: "Tail latency: normal vs hedged vs tied",
    description:
      "Two testbed replicas where 1 % of requests stall for 1 s. Normal requests show the stalls at p99.9; hedged requests (a backup after the p95 latency) and tied requests (two copies at once, the slower cancelled) hide them. Three runs, compared side by side.",
    endpointId: EMBEDDED_TESTBED_ENDPOINT_ID,
    // 3 000 GETs make p99.9 the 3rd-worst request, so one unlucky request cannot decide it; 16
    // clients finish the three runs in about 30 s on 2 cores. A backup may be sent after only 5
    // latencies are known, and the 20 % budget leaves room for bursts of stalls (p95 hedging
    // itself spends about 5 %).
    spec: {
      clients: 16,
      samples: 3000,
      objectSize: "4KiB",
      hedge: { delay: "p95", budgetPercent: "20%", minSamples: 5 },
      testbed: { replicas: 2, profile: "stalls", seed: 1 },
    },
    modes: ["normal", "hedged", "tied"],
  },
  {
    id: "builtin-size-sweep",
    builtIn: true,
    updatedAt: UPDATED_AT,
    name: "Object size sweep at fixed total",
    description:
      "The labs' size sweep: 4 MiB written, read and deleted at each point as 512 × 8 KiB, 256 × 16 KiB … 2 × 2 MiB objects by one client. Per-request costs dominate small objects, so throughput grows with object size.",
    endpointId: EMBEDDED_TESTBED_ENDPOINT_ID,
    // The spec's own clients, samples and size are the first point's, as in core's presets.
    spec: { ...SIZE_SWEEP_POINTS[0], points: SIZE_SWEEP_POINTS },
  },
  {
    id: "builtin-concurrency-sweep",
    builtIn: true,
    updatedAt: UPDATED_AT,
    name: "Concurrency sweep",
    description:
      "1 to 16 clients, 400 requests of 64 KiB each, on a testbed replica that serves 8 requests at once: throughput grows until the slots are full, then latency grows instead (an M/M/c queue).",
    endpointId: EMBEDDED_TESTBED_ENDPOINT_ID,
    spec: {
      clients: [1, 2, 4, 8, 16],
      samples: 400,
      objectSize: "64KiB",
      testbed: { replicas: 1, profile: "queue", seed: 1 },
    },
  },
  {
    id: "builtin-parameter-grid",
    builtIn: true,
    updatedAt: UPDATED_AT,
    name: "Parameter grid",
    description:
      "Lab 2's grid: 1, 4 and 8 clients × 1 KiB, 32 KiB and 1 MiB objects, 128 requests per phase at each of the 9 points.",
    endpointId: EMBEDDED_TESTBED_ENDPOINT_ID,
    spec: { clients: [1, 4, 8], samples: 128, objectSize: ["1KiB", "32KiB", "1MiB"] },
  },
  {
    id: "builtin-tied-cancel",
    builtIn: true,
    updatedAt: UPDATED_AT,
    name: "Tied requests: client vs server cancellation",
    description:
      "Two testbed replicas that serve one request at a time (exponential service, mean 20 ms), at 60 % of their capacity. Tied requests cancelled by the client run both copies until one answers, nearly doubling the work; cancelled by the servers, as in The Tail at Scale, the replica that starts a copy drops its twin from the other's queue, so the median falls too at almost no extra work.",
    endpointId: EMBEDDED_TESTBED_ENDPOINT_ID,
    // Poisson arrivals at 60/s for 15 s per mode: 900 GETs. Service times of tens of ms keep the
    // queueing, not the CPU of a busy 2-core machine (each tied copy is an HTTP request), as
    // what the modes are judged on.
    spec: {
      clients: 32,
      objectSize: "4KiB",
      openLoop: { rateHz: 60, arrivals: "poisson", durationMs: "15s" },
      workload: { ops: "get:100", prepareObjects: 200 },
      testbed: {
        replicas: 2,
        profile: {
          description: "one service slot per replica, exponential service time (mean 20 ms)",
          serviceTime: { kind: "exponential", meanMs: 20 },
          queue: { slots: 1 },
        },
        seed: 1,
      },
    },
    modes: ["normal", "tied", "tied-server"],
  },
  {
    id: "builtin-live-tail",
    builtIn: true,
    updatedAt: UPDATED_AT,
    name: "Live tail lab",
    description:
      "GETs on two testbed replicas (16 service slots each, 5 ms median, 1 % of requests stall for 0.5 s) until you stop it. Move the knobs while it runs — stalls, service time, replicas, normal, hedged or tied requests, hedge delay and budget — and watch p50, p99 and p99.9 per second and the extra requests answer within two seconds. Every change is marked on the timeline and kept with the run.",
    endpointId: EMBEDDED_TESTBED_ENDPOINT_ID,
    // 400 GETs a second: a p99 per second from 400 answers, at a small share of 2 cores. With 16
    // slots a replica keeps up with the stall knob's whole range; a longer service time (toward
    // 80 ms) is what fills its queue, where tied requests cancelled by the servers pay off.
    spec: {
      clients: 16,
      objectSize: "4KiB",
      openLoop: { rateHz: 400, arrivals: "poisson", untilStopped: true },
      workload: { ops: "get:100", prepareObjects: 200 },
      hedge: { delay: "20ms", budgetPercent: "10%", minSamples: 5 },
      testbed: {
        replicas: 2,
        profile: {
          description: "live tail lab: lognormal 5 ms, 1 % stall 0.5 s, 16 slots per replica",
          serviceTime: { kind: "lognormal", medianMs: 5, sigma: 0.25 },
          stalls: { probability: 0.01, durationMs: 500 },
          queue: { slots: 16 },
        },
        seed: 1,
      },
    },
  },
];

/** The built-in live tail lab: a live session, whose knobs move while it runs. */
export const LIVE_TAIL_EXPERIMENT_ID = "builtin-live-tail";

export function isBuiltInExperiment(id: string): boolean {
  return BUILT_IN_EXPERIMENTS.some((experiment) => experiment.id === id);
}
