import type { RequestRecord, RunSummary } from "@taillab/api";
import { REQUESTS_CSV_HEADER, requestsCsvRows } from "@taillab/report";
import { createWriteStream } from "node:fs";
import { makeFolder, writeFileAtomically } from "@taillab/store";
import { join } from "node:path";
import { finished } from "node:stream/promises";

/**
 * `--out DIR`: requests.csv streamed while the run goes on, summary.json written last and
 * atomically (temp file, fsync, rename), so a reader never sees half a summary.
 */
export interface OutFolderWriter {
  addRecords(pointIndex: number, records: readonly RequestRecord[]): void;
  finish(summary: RunSummary): Promise<void>;
}

export async function createOutFolderWriter(directory: string): Promise<OutFolderWriter> {
  await makeFolder(directory);
  const requests = createWriteStream(join(directory, "requests.csv"));
  requests.write(REQUESTS_CSV_HEADER);
  return {
    addRecords(pointIndex, records) {
      requests.write(requestsCsvRows(pointIndex, records));
    },
    async finish(summary) {
      requests.end();
      await finished(requests);
      await writeFileAtomically(join(directory, "summary.json"), JSON.stringify(summary, null, 2));
    },
  };
}
