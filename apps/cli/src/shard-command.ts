import { cleanupLeftNothing } from "@taillab/api";
import { runShard, StartBarrierError } from "@taillab/backend";
import { formatRunFolderUri } from "@taillab/core";
import { EXIT } from "./exit-codes.ts";
import { stoppableByInterrupt } from "./interrupts.ts";
import { createProgressDisplay } from "./progress-bar.ts";
import { printSummary } from "./summary-printer.ts";
import { describeLeftovers, runVerdict } from "./run-verdict.ts";
import { cliSecrets, type RunFlags } from "./run-flags.ts";
import type { ShardFlags } from "./shard-flags.ts";
import { printError } from "./terminal-output.ts";

/**
 * `taillab run --shard I/N --start-at T --results s3://…/RUN/`: one shard of a distributed run.
 * It prints its own share's summary; `taillab merge` makes the run's. A shard that does not
 * start (barrier deadline, duplicate index, its clock more than 1 s off the storage server's, the
 * run aborted) exits 3, so Kubernetes does not retry its index.
 */
export async function runShardCommand(
  spec: object,
  flags: RunFlags,
  shard: ShardFlags,
): Promise<number> {
  const label = `shard ${shard.role.index}/${shard.role.count}`;
  const progress = createProgressDisplay(process.stderr);
  const notice = (message: string) => {
    progress.clear();
    printError(`${message}\n`);
  };
  try {
    const { summary, keyPrefix, cleanup } = await stoppableByInterrupt(
      (signal) =>
        runShard({
          spec,
          secrets: { env: { ...process.env, ...cliSecrets(flags) } },
          role: shard.role,
          folder: shard.folder,
          startAtMs: shard.startAtMs,
          barrierTimeoutMs: shard.barrierTimeoutMs,
          uploadRecords: shard.uploadRecords,
          clockSkewMs: shard.clockSkewMs,
          hooks: { signal, onNotice: notice, onProgress: (update) => progress.update(update) },
        }),
      () => `${label}: stopping; what it measured goes to the run's folder`,
    );
    progress.clear();
    printSummary(summary, flags.json === true, false);
    printError(`${label}: results in ${formatRunFolderUri(shard.folder)}\n`);
    // Its keys are its own (not the merged run's): what its cleanup left is said with their place.
    const left =
      cleanup && !cleanupLeftNothing(cleanup)
        ? describeLeftovers(cleanup, { bucket: summary.spec.bucket, keyPrefix })
        : null;
    const verdict = runVerdict(summary, null);
    if (left && verdict.code !== EXIT.interrupted) {
      printError(`${label}: exit ${EXIT.leftovers}: the cleanup left ${left}\n`);
      return EXIT.leftovers;
    }
    if (verdict.line) printError(`${label}: ${verdict.line}\n`);
    return verdict.code;
  } catch (error) {
    if (!(error instanceof StartBarrierError)) throw error;
    notice(`taillab run: ${error.message}`);
    return EXIT.shardGaveUp;
  } finally {
    progress.clear();
  }
}
