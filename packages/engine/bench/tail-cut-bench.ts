/**
 * `pnpm bench tail`, part 1: how far each request mode cuts the tail on the testbed's stalls
 * profile (lognormal service time, median 5 ms, and 1 % of requests stalled for 1 s), 2 replicas,
 * closed loop, 4 KiB objects. The write phase creates the objects; the goal is judged on the read
 * phase. Each mode gets a fresh testbed process started with the same seed, so each replica
 * draws the same sequence of delays in every mode.
 */
import {
  HedgeOptionsSchema,
  type HedgeOptions,
  type Operation,
  type PhaseSummary,
  type RequestMode,
} from "@taillab/api";
import { formatTable } from "@taillab/report";
import { availableParallelism } from "node:os";
import { epochNowMs, runPoint } from "../src/index.ts";
import { startTestbedProcess } from "./testbed-process.ts";
import { evaluateTailCutGoal, TAIL_CUT_GOAL, type ModeTail } from "./tail-cut-goal.ts";

const REQUESTS = Number(process.env.BENCH_TAIL_REQUESTS ?? 10_000);
const CLIENTS = 16;
const SIZE_BYTES = 4096;
const REPLICAS = 2;
const SEED = 1;
const BUCKET = "bench";
const WORKERS = availableParallelism();

interface ModeSetup {
  label: string;
  mode: RequestMode;
  hedge: HedgeOptions;
}

const MODE_SETUPS: readonly ModeSetup[] = [
  { label: "normal", mode: "normal", hedge: HedgeOptionsSchema.parse({}) },
  // 30 ms is about 3× an ordinary request's p99 (~9 ms): backups go almost only to stalls, whose
  // 1 % fits in a 3 % budget with room for several stalls at once.
  {
    label: "hedged 30ms / 3%",
    mode: "hedged",
    hedge: HedgeOptionsSchema.parse({ delay: "30ms", budgetPercent: "3%" }),
  },
  // The engine's default: a p95 delay hedges ~5 % of requests by construction.
  {
    label: "hedged p95 / 10%",
    mode: "hedged",
    hedge: HedgeOptionsSchema.parse({ delay: "p95", budgetPercent: "10%" }),
  },
  {
    label: "tied, 2 copies at once, no budget",
    mode: "tied",
    hedge: HedgeOptionsSchema.parse({ tiedDelayMs: 0 }),
  },
  // With a 3 % budget the delay never drops below p97, so ordinary requests cannot drain the
  // budget just before a stall arrives.
  {
    label: "adaptive p99 / 3%",
    mode: "adaptive",
    hedge: HedgeOptionsSchema.parse({ delay: "p99", budgetPercent: "3%" }),
  },
];

interface ModeResult {
  setup: ModeSetup;
  byOp: Map<Operation, PhaseSummary>;
}

async function measureMode(setup: ModeSetup): Promise<ModeResult> {
  const testbed = await startTestbedProcess({
    buckets: [BUCKET],
    replicas: REPLICAS,
    profile: "stalls",
    seed: SEED,
  });
  const byOp = new Map<Operation, PhaseSummary>();
  try {
    await runPoint({
      targets: testbed.urls.map((url) => ({
        url,
        region: "us-east-1",
        addressing: "path",
        credentials: null,
        bucket: BUCKET,
      })),
      openLoop: null,
      workload: null,
      mode: setup.mode,
      hedge: setup.hedge,
      replicaChoice: "round-robin",
      transportKind: "fast",
      params: { clients: CLIENTS, samples: REQUESTS, objectSizeBytes: SIZE_BYTES },
      phases: ["write", "read"],
      keyPrefix: `bench/tail-${setup.mode}-${Date.now()}/`,
      firstKey: 0,
      firstPhaseIndex: 0,
      workers: WORKERS,
      verify: false,
      runStartEpochMs: epochNowMs(),
      onPhaseDone: ({ summary }) => byOp.set(summary.op, summary),
    });
  } finally {
    await testbed.stop();
  }
  return { setup, byOp };
}

function tailOf(result: ModeResult, op: Operation): ModeTail | null {
  const summary = result.byOp.get(op);
  if (!summary?.latencyMs) return null;
  return {
    label: result.setup.label,
    p999Ms: summary.latencyMs.p999,
    extraPct: summary.hedge?.extraPct ?? 0,
  };
}

function tableRows(results: readonly ModeResult[], op: Operation): string[][] {
  const normal = results.find((result) => result.setup.mode === "normal")?.byOp.get(op);
  return results.flatMap((result) => {
    const summary = result.byOp.get(op);
    if (!summary?.latencyMs) return [];
    const { latencyMs } = summary;
    return [
      [
        result.setup.label,
        op,
        String(summary.requests),
        latencyMs.p50.toFixed(1),
        latencyMs.p99.toFixed(1),
        latencyMs.p999.toFixed(1),
        latencyMs.max.toFixed(1),
        (summary.hedge?.extraPct ?? 0).toFixed(2),
        normal?.latencyMs ? `${(normal.latencyMs.p999 / latencyMs.p999).toFixed(1)}×` : "",
        String(summary.errors),
      ],
    ];
  });
}

function describeGoal(results: readonly ModeResult[]): string {
  const tails = results.flatMap((result) => tailOf(result, "GET") ?? []);
  const normal = results.find((result) => result.setup.mode === "normal");
  const normalTail = normal ? tailOf(normal, "GET") : null;
  if (!normalTail) return "Goal: cannot judge, the normal mode has no GET phase.";
  const verdict = evaluateTailCutGoal(normalTail, tails);
  const goal = `GET p99.9 at least ${TAIL_CUT_GOAL.minP999Cut}× lower than normal at no more than ${TAIL_CUT_GOAL.maxExtraPct} % extra requests`;
  const describe = (tail: ModeTail & { cut: number }) =>
    `${tail.label} (${tail.cut.toFixed(1)}× at ${tail.extraPct.toFixed(2)} % extra)`;
  if (verdict.meeting.length > 0) {
    return `Goal (${goal}): MET by ${verdict.meeting.map(describe).join(", ")}.`;
  }
  const best = verdict.bestWithinBudget;
  return `Goal (${goal}): NOT MET; best within the extra-request limit: ${best ? describe(best) : "none"}.`;
}

const results: ModeResult[] = [];
for (const setup of MODE_SETUPS) {
  process.stderr.write(`tail cut: ${setup.label}…\n`);
  results.push(await measureMode(setup));
}

process.stdout.write(
  `\n1. Tail cut on the stalls profile (lognormal median 5 ms, 1 % of requests stall 1 s): ` +
    `${REPLICAS} replicas, seed ${SEED}, closed loop, ${CLIENTS} clients, ${SIZE_BYTES} B objects, ` +
    `${REQUESTS} requests per phase and mode, a fresh testbed process per mode; TailLab fast transport, ${WORKERS} worker threads\n\n`,
);
process.stdout.write(
  formatTable([
    [
      "mode / budget",
      "op",
      "requests",
      "p50 ms",
      "p99 ms",
      "p99.9 ms",
      "max ms",
      "extra %",
      "p99.9 cut",
      "errors",
    ],
    ...tableRows(results, "GET"),
    ...tableRows(results, "PUT"),
  ]),
);
process.stdout.write(
  `\np99.9 cut: normal's p99.9 / the row's p99.9, same op; with ${REQUESTS} requests only ` +
    `${Math.floor(REQUESTS / 1000)} lie above p99.9. extra %: backup attempts per 100 requests.\n` +
    `${describeGoal(results)}\n`,
);
