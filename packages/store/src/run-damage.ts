import type { RunDamage, RunStatus } from "@taillab/api";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { LOG_HEADER_BYTES } from "./record-log-format.ts";
import { countLogRecords, type LogExtent } from "./record-log-reader.ts";
import { RUN_FILES, type FolderProblem } from "./run-folder.ts";

/**
 * What is wrong with a run folder, said for a person one line per file: the documents that
 * count as missing, the records log's readable extent and what is lost of it, the interval log.
 */

export interface LogExtentReport extends LogExtent {
  /** Records the run wrote that cannot be read, when it counted them; else null. */
  lostRecords: number | null;
  /** What is wrong with the log, for a person, or null. */
  problem: string | null;
}

/** What the folder says about the records its run wrote, for telling a loss from no records. */
export interface WrittenRecords {
  status: RunStatus;
  /** run.json's count, for a run that ended; null for one that died or predates the count. */
  recordsWritten: number | null;
  /** summary.json is there: the run ended, and a run that ends has sent requests. */
  hasSummary: boolean;
}

/**
 * The records a run's log holds and what could not be read of it. A log whose writer is gone
 * may have been cut short or damaged since, so its frames are checked; a live writer's is only
 * walked (its last frame may be half-written at this moment). What is lost is said in
 * records when the run counted those it wrote (`recordsWritten`), else in bytes.
 */
export async function readLogExtent(
  folder: string,
  { status, recordsWritten, hasSummary }: WrittenRecords,
): Promise<LogExtentReport> {
  const path = join(folder, RUN_FILES.records);
  const lostOf = (records: number) =>
    recordsWritten === null ? null : Math.max(0, recordsWritten - records);
  const all = recordsWritten === null ? "the run's records" : `the run's ${recordsWritten} records`;
  try {
    const extent = await countLogRecords(path, RUN_FILES.records, {
      verify: status !== "running",
    });
    if (status === "running") return { ...extent, lostRecords: null, problem: null };
    if (extent.records === 0 && extent.skippedBytes === 0) {
      // A folder is made whole with its log's header, so a log without one was cut since.
      const headerless = (await stat(path)).size < LOG_HEADER_BYTES;
      const wroteSome = (recordsWritten ?? 0) > 0 || (recordsWritten === null && hasSummary);
      if (headerless && wroteSome) {
        return {
          ...extent,
          lostRecords: lostOf(0),
          problem: `${RUN_FILES.records} is empty (cut to less than its header); ${all} are lost`,
        };
      }
    }
    if (extent.skippedBytes === 0) return { ...extent, lostRecords: null, problem: null };
    const lostRecords = lostOf(extent.records);
    const lost =
      lostRecords === null
        ? "the records in them are lost"
        : `${lostRecords} of the run's ${recordsWritten} records are lost`;
    return {
      ...extent,
      lostRecords,
      problem: `${RUN_FILES.records}: the ${extent.skippedBytes} bytes after record ${extent.records} could not be read (cut short or damaged); ${lost}`,
    };
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    const problem =
      code === "ENOENT"
        ? `${RUN_FILES.records} is missing; ${all} are lost`
        : code === undefined
          ? `${message}; ${all} are lost`
          : `${RUN_FILES.records} cannot be read (${message}); ${all} are lost`;
    return { records: 0, skippedBytes: 0, lostRecords: lostOf(0), problem };
  }
}

export function describeProblem({ file, reason }: FolderProblem): string {
  const standIn = file === RUN_FILES.summary ? "the summary is" : "the histograms are";
  return `${file} ${reason}; ${standIn} rebuilt from the records`;
}

/** The damage of a folder from its problems, in the order files are listed; null when sound. */
export function damageOf(
  problems: readonly (string | null)[],
  log: LogExtentReport,
): RunDamage | null {
  const all = [...problems, log.problem].filter((problem) => problem !== null);
  return all.length === 0
    ? null
    : { problems: all, skippedLogBytes: log.skippedBytes, lostRecords: log.lostRecords };
}
