/**
 * A writer process for the crash tests: `node write-run-child.ts <results dir> <run id>` writes
 * one run as fast as it can (2 points × PUT, GET, DELETE, in batches), with histograms at the end
 * of each phase and a finish, printing what is durable as it goes:
 *   ready              the store is open; the run is about to be created
 *   created            the run folder exists
 *   durable <n>        the first n records are written and fsynced
 *   finished <n>       the run completed with n records
 * The test kills it with SIGKILL at a random moment and checks what the store finds.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { openResultsStore } from "../results-store.ts";
import {
  CRASH_RUN,
  phaseOf,
  sampleRecords,
  sampleRunInput,
  sampleSpec,
  sampleSummary,
} from "./sample-run.ts";

const BATCH = 250;

const [dir, id] = process.argv.slice(2);
if (!dir || !id) throw new Error("usage: write-run-child.ts <results dir> <run id>");

const store = await openResultsStore(dir);
process.stdout.write("ready\n");
const input = sampleRunInput(
  id,
  sampleSpec({ clients: [4, 8], samples: CRASH_RUN.recordsPerPhase }),
);
const writer = await store.createRun(input);
process.stdout.write("created\n");
let appended = 0;
for (let pointIndex = 0; pointIndex < CRASH_RUN.points; pointIndex += 1) {
  for (const [opIndex, op] of CRASH_RUN.ops.entries()) {
    const records = sampleRecords({
      keyPrefix: input.keyPrefix,
      op,
      count: CRASH_RUN.recordsPerPhase,
      seed: pointIndex * 10 + opIndex,
      firstKey: pointIndex * CRASH_RUN.recordsPerPhase,
    });
    for (let start = 0; start < records.length; start += BATCH) {
      writer.appendRecords(pointIndex, records.slice(start, start + BATCH));
      appended += Math.min(BATCH, records.length - start);
      if ((start / BATCH) % 4 === 3) {
        await writer.flush();
        process.stdout.write(`durable ${appended}\n`);
      } else {
        await sleep(2);
      }
    }
    const phase = phaseOf(input.spec, pointIndex, op, records);
    await writer.addPhase(phase.histograms, phase.intervalLines);
    process.stdout.write(`durable ${appended}\n`);
  }
}
await writer.finish(sampleSummary(id, input.spec, CRASH_RUN.ops));
process.stdout.write(`finished ${appended}\n`);
