import { readIntervalLog } from "@taillab/core";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { RUN_FILES } from "./run-folder.ts";
import { isCode } from "./write-atomically.ts";

/** A run's intervals.hlog as read: its text when every line of it can be used, or why not. */
export type IntervalLogFile =
  | { sound: true; text: string }
  | {
      sound: false;
      /** One line for a person, naming the file, or null where a gap is not damage. */
      problem: string | null;
      /** The StartTime of the part that could be read, when it says one. */
      runStartEpochMs: number | null;
    };

const REBUILT = "percentiles over time are rebuilt from the records";
const HEADER = "#[Histogram log format version";

/**
 * Reads a run folder's interval log and checks every line: each must parse and its histogram
 * decode, and the file must end with a whole line (the writer appends whole lines: a torn tail is
 * a power cut or a copy cut short). A log that fails is rebuilt whole from the records by the
 * caller. A folder written before the interval log existed (version 1) has none, which is no
 * damage; a live writer's log may end in a line being written, which is not either.
 */
export async function readIntervalLogFile(
  folder: string,
  { live, fromVersion }: { live: boolean; fromVersion: number },
): Promise<IntervalLogFile> {
  const file = RUN_FILES.intervals;
  let text: string;
  try {
    text = await readFile(join(folder, file), "utf8");
  } catch (error) {
    const missing = isCode(error, "ENOENT");
    if (missing && fromVersion < 2) return { sound: false, problem: null, runStartEpochMs: null };
    const why = missing ? "is missing" : `cannot be read (${(error as Error).message})`;
    return { sound: false, problem: `${file} ${why}; ${REBUILT}`, runStartEpochMs: null };
  }
  if (!text.startsWith(HEADER)) {
    if (live) return { sound: false, problem: null, runStartEpochMs: null };
    return {
      sound: false,
      problem: `${file} is not an HdrHistogram interval log; ${REBUILT}`,
      runStartEpochMs: null,
    };
  }
  const read = readIntervalLog(text);
  if (read.skippedLines === 0 && text.endsWith("\n")) return { sound: true, text };
  const lines = read.linesRead + read.skippedLines;
  return {
    sound: false,
    problem: live
      ? null
      : `${file}: ${Math.max(read.skippedLines, 1)} of its ${lines} lines could not be read (cut short or damaged); ${REBUILT}`,
    runStartEpochMs: read.runStartEpochMs,
  };
}
