/** `pnpm bench <name>`: runs one benchmark script; each prints its figures. */
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const BENCHES: Record<string, string> = {
  distributed: "packages/backend/bench/distributed-bench.ts",
  engine: "packages/engine/bench/engine-bench.ts",
  store: "packages/store/bench/store-bench.ts",
  scale: "packages/engine/bench/scale-bench.ts",
  tail: "packages/engine/bench/tail-bench.ts",
  tied: "packages/engine/bench/tied-bench.ts",
  ui: "e2e/bench/ui-bench.ts",
};

const name = process.argv[2] ?? "";
const script = BENCHES[name];
if (!script) {
  process.stderr.write(`usage: pnpm bench <${Object.keys(BENCHES).join("|")}>\n`);
  process.exit(2);
}
const result = spawnSync(process.execPath, [join(import.meta.dirname, "..", script)], {
  stdio: "inherit",
});
process.exitCode = result.status ?? 1;
