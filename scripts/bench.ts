/**
 * `pnpm bench <name>`: runs one benchmark script in a fresh Node process (so one bench's JIT and
 * heap state stay out of another's timings); each prints its figures.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");

const BENCHES: Record<string, { script: string; nodeFlags?: string[] }> = {
  distributed: { script: "packages/backend/bench/distributed-bench.ts" },
  "merge-memory": { script: "packages/backend/bench/merge-memory-bench.ts" },
  engine: { script: "packages/engine/bench/engine-bench.ts" },
  alloc: {
    script: "packages/engine/bench/allocation-bench.ts",
    nodeFlags: ["--require", join(root, "packages/engine/bench/allocation-tap.ts")],
  },
  tail: { script: "packages/engine/bench/tail-cut-bench.ts" },
  "added-latency": {
    script: "packages/engine/bench/added-latency-bench.ts",
    // --require rather than --import: worker threads run --require preloads only.
    nodeFlags: ["--require", join(root, "packages/engine/bench/service-time-tap.ts")],
  },
  wire: { script: "packages/backend/bench/wire-truth-bench.ts" },
  "open-loop": { script: "packages/engine/bench/open-loop-accuracy-bench.ts" },
  "long-run": { script: "apps/cli/bench/long-run-bench.ts" },
  "hostile-list": { script: "apps/cli/bench/hostile-list-bench.ts" },
  "silent-server": { script: "apps/cli/bench/silent-server-bench.ts" },
  scale: { script: "apps/cli/bench/scale-bench.ts" },
  "csv-export": { script: "apps/cli/bench/csv-export-bench.ts" },
  store: { script: "packages/store/bench/store-bench.ts" },
  tied: { script: "packages/engine/bench/tied-bench.ts" },
  ui: { script: "e2e/bench/ui-bench.ts" },
};

const name = process.argv[2] ?? "";
const bench = BENCHES[name];
if (!bench) {
  process.stderr.write(`usage: pnpm bench <${Object.keys(BENCHES).join("|")}>\n`);
  process.exit(2);
}
const result = spawnSync(
  process.execPath,
  [...(bench.nodeFlags ?? []), join(root, bench.script), ...process.argv.slice(3)],
  { stdio: "inherit" },
);
process.exitCode = result.status ?? 1;
