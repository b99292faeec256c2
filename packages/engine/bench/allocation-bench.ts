/**
 * `pnpm bench alloc`: bytes TailLab's engine allocates per request, GET and PUT of 4 KiB with 8 in
 * flight on one worker, against the embedded testbed in its own process, records kept as a run
 * keeps them. Every thread's V8 heap is counted (allocation-tap.ts, preloaded): the worker that
 * sends the requests and the main thread that folds their reports. A count of bytes does not
 * depend on the machine's load, as a time would. The first PUT and GET phases warm the code up;
 * the second pair is measured.
 */
import { HedgeOptionsSchema } from "@taillab/api";
import { formatTable } from "@taillab/report";
import { randomBytes } from "node:crypto";
import { threadId } from "node:worker_threads";
import { epochNowMs, runPoint } from "../src/index.ts";
import { readAllocations, type AllocationReading } from "./allocation-channel.ts";
import { startTestbedProcess } from "./testbed-process.ts";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 5_000);
const IN_FLIGHT = 8;
const WORKERS = 1;
const SIZE_BYTES = 4096;
const BUCKET = "bench";
/**
 * The phases in turn; each reading is taken at the gate before a phase (the worker has ended by
 * the end of the last, so the cleanup is not measured).
 */
const PHASES = ["write", "read", "write", "read", "cleanup"] as const;
const MEASURED = [
  { op: "PUT", from: 2 },
  { op: "GET", from: 3 },
] as const;

const credentials = { accessKeyId: "BENCHKEY", secretAccessKey: randomBytes(16).toString("hex") };
const testbed = await startTestbedProcess({ buckets: [BUCKET], credentials });
const readings: Map<number, AllocationReading>[] = [];
try {
  await runPoint({
    targets: [
      {
        url: testbed.urls[0] as string,
        region: "us-east-1",
        addressing: "path",
        credentials,
        bucket: BUCKET,
      },
    ],
    openLoop: null,
    workload: null,
    mode: "normal",
    hedge: HedgeOptionsSchema.parse({}),
    replicaChoice: "round-robin",
    transportKind: "fast",
    params: { clients: IN_FLIGHT, samples: REQUESTS, objectSizeBytes: SIZE_BYTES },
    phases: [...PHASES],
    keyPrefix: `bench/allocation-${Date.now()}/`,
    firstKey: 0,
    firstPhaseIndex: 0,
    workers: WORKERS,
    verify: false,
    runStartEpochMs: epochNowMs(),
    // Records are kept, as every run keeps them; the bench only counts them.
    onRecords: () => {},
    startGate: async () => {
      readings.push(await readAllocations(1 + WORKERS));
      return epochNowMs();
    },
  });
} finally {
  await testbed.stop();
}

/** Per request of the phase from `from`, over the main thread's or the worker's readings. */
const perRequest = (
  from: number,
  thread: "main" | "worker",
  field: "allocatedBytes" | "collections",
) => {
  const sumOf = (reading: Map<number, AllocationReading>) =>
    [...reading.values()]
      .filter((each) => (each.threadId === threadId) === (thread === "main"))
      .reduce((sum, each) => sum + each[field], 0);
  const before = readings[from];
  const after = readings[from + 1];
  if (!before || !after) throw new Error(`no reading around phase ${from}`);
  return (sumOf(after) - sumOf(before)) / REQUESTS;
};
process.stdout.write(
  `\n${REQUESTS} requests per phase, ${SIZE_BYTES} B objects, ${IN_FLIGHT} in flight, ` +
    `${WORKERS} worker, records kept; V8 heap bytes allocated per request, and collections ` +
    `per 1 000 requests\n\n`,
);
process.stdout.write(
  formatTable([
    ["op", "worker B/req", "main B/req", "total B/req", "worker GCs/1000", "main GCs/1000"],
    ...MEASURED.map(({ op, from }) => {
      const worker = perRequest(from, "worker", "allocatedBytes");
      const main = perRequest(from, "main", "allocatedBytes");
      return [
        op,
        worker.toFixed(0),
        main.toFixed(0),
        (worker + main).toFixed(0),
        (perRequest(from, "worker", "collections") * 1000).toFixed(1),
        (perRequest(from, "main", "collections") * 1000).toFixed(1),
      ];
    }),
  ]),
);
