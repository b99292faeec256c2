/**
 * `pnpm bench scale`: 10 000 clients against the testbed (in a process of its own, as a user runs
 * it: `taillab testbed`), closed loop then open loop. For each: requests answered, errors by code
 * (the testbed's `fast` profile fails nothing, so every error is the tool's), the peak RSS of
 * this process, and the time from Stop (the abort) to the run stopped (runPoint resolved, its
 * figures in hand).
 */
import type { PhaseSummary } from "@taillab/api";
import { HedgeOptionsSchema } from "@taillab/api";
import { epochNowMs, runPoint } from "../src/index.ts";
import { startTestbedProcess } from "./testbed-process.ts";

const CLIENTS = 10_000;
const BUCKET = "scale";
const RUN_FOR_MS = 6000;

interface Outcome {
  label: string;
  phases: PhaseSummary[];
  stopMs: number;
  peakRssMb: number;
}

async function measure(label: string, openLoop: boolean): Promise<Outcome> {
  const testbed = await startTestbedProcess({ buckets: [BUCKET], profile: "fast" });
  const stop = new AbortController();
  const phases: PhaseSummary[] = [];
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 100);
  const timer = setTimeout(() => stop.abort(), RUN_FOR_MS);
  let abortedAt = 0;
  stop.signal.addEventListener("abort", () => {
    abortedAt = performance.now();
  });
  try {
    await runPoint({
      targets: testbed.urls.map((url) => ({
        url,
        region: "us-east-1",
        addressing: "path",
        credentials: null,
        bucket: BUCKET,
      })),
      transportKind: "fast",
      params: { clients: CLIENTS, samples: 10_000_000, objectSizeBytes: 4096 },
      workload: null,
      openLoop: openLoop ? { rateHz: 20_000, arrivals: "poisson", seed: 1 } : null,
      mode: "normal",
      hedge: HedgeOptionsSchema.parse({}),
      replicaChoice: "round-robin",
      phases: ["write", "read", "cleanup"],
      keyPrefix: `bench/scale-${Date.now()}/`,
      firstKey: 0,
      firstPhaseIndex: 0,
      workers: 1,
      verify: false,
      runStartEpochMs: epochNowMs(),
      signal: stop.signal,
      onPhaseDone: ({ summary }) => phases.push(summary),
    });
    return {
      label,
      phases,
      stopMs: performance.now() - abortedAt,
      peakRssMb: peakRss / 1024 / 1024,
    };
  } finally {
    clearTimeout(timer);
    clearInterval(sampler);
    await testbed.stop();
  }
}

function describe({ label, phases, stopMs, peakRssMb }: Outcome): string {
  const lines = phases.map((phase) => {
    const errors = Object.entries(phase.errorsByCode)
      .map(([code, count]) => `${code} ${count}`)
      .join(", ");
    return `  ${phase.op}: ${phase.requests} requests, ${phase.errors} errors${errors ? ` (${errors})` : ""}, p99 ${phase.latencyMs?.p99.toFixed(1) ?? "-"} ms`;
  });
  return [
    `${label}: stop to stopped ${stopMs.toFixed(0)} ms; peak RSS of this process ${peakRssMb.toFixed(0)} MB`,
    ...lines,
  ].join("\n");
}

process.stdout.write(`${CLIENTS} clients, 4 KiB, against \`taillab testbed\` (fast profile)\n`);
for (const [label, openLoop] of [
  ["closed loop", false],
  ["open loop, Poisson 20 000/s", true],
] as const) {
  process.stdout.write(`${describe(await measure(label, openLoop))}\n`);
}
