import type { Operation, RequestRecord, RunSpec } from "@taillab/api";
import type { ResultsStore } from "../results-store.ts";
import type { RunWriter } from "../run-writer.ts";
import { phaseOf, sampleRecords, sampleRunInput, sampleSummary } from "./sample-run.ts";

export type Written = { pointIndex: number; record: RequestRecord }[];

/** Appends `perPhase` records for each point × op, in batches, with the phases' histograms. */
export async function writePhases(
  writer: RunWriter,
  spec: RunSpec,
  keyPrefix: string,
  points: number,
  ops: Operation[],
  perPhase: number,
): Promise<Written> {
  const written: Written = [];
  for (let pointIndex = 0; pointIndex < points; pointIndex += 1) {
    for (const [index, op] of ops.entries()) {
      const records = sampleRecords({
        keyPrefix,
        op,
        count: perPhase,
        seed: pointIndex * 10 + index,
        phaseIndex: pointIndex * ops.length + index,
      });
      for (let start = 0; start < records.length; start += 333) {
        const batch = records.slice(start, start + 333);
        writer.appendRecords(pointIndex, batch);
        written.push(...batch.map((record) => ({ pointIndex, record })));
      }
      const phase = phaseOf(spec, pointIndex, op, records);
      await writer.addPhase(phase.histograms, phase.intervalLines);
    }
  }
  return written;
}

/** A complete run of one point (PUT then GET, `perPhase` records each), as a host writes it. */
export async function completeRun(store: ResultsStore, id: string, perPhase = 100) {
  const input = sampleRunInput(id);
  const writer = await store.createRun(input);
  const written = await writePhases(
    writer,
    input.spec,
    input.keyPrefix,
    1,
    ["PUT", "GET"],
    perPhase,
  );
  await writer.finish(sampleSummary(id, input.spec, ["PUT", "GET"]));
  return { input, written };
}
