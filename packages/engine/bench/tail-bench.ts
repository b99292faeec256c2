/**
 * `pnpm bench tail`: (1) how far hedged, tied and adaptive requests cut the tail on the testbed's
 * stalls profile, and (2) how much latency TailLab adds to a request next to a bare undici loop.
 * Each part runs in a process of its own: part 2 needs service-time-tap.ts preloaded, and a fresh
 * process keeps one part's JIT and heap state out of the other's timings. The testbeds run in
 * further child processes, so their CPU is not the client's.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

const PARTS: readonly { script: string; nodeFlags: string[] }[] = [
  { script: here("./tail-cut-bench.ts"), nodeFlags: [] },
  {
    script: here("./added-latency-bench.ts"),
    // --require rather than --import: worker threads run --require preloads only.
    nodeFlags: ["--require", here("./service-time-tap.ts")],
  },
];

const startedMs = performance.now();
for (const part of PARTS) {
  const result = spawnSync(process.execPath, [...part.nodeFlags, part.script], {
    stdio: "inherit",
  });
  if (result.status !== 0) {
    process.stderr.write(`${part.script} failed (exit ${result.status ?? result.signal})\n`);
    process.exit(result.status ?? 1);
  }
}
process.stdout.write(
  `\nTimings are noisy (client and testbed share this machine's cores): compare rows within one ` +
    `run (the ratios), not absolute times across runs. Whole bench: ` +
    `${((performance.now() - startedMs) / 1000).toFixed(0)} s.\n`,
);
