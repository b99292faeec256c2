import type { ImportTool } from "@taillab/api";
import type { ImportedPhase } from "./imported-phase.ts";

/**
 * A run read from another benchmark's result file, before it is a run folder: its phases and
 * what the file says of how it ran, each left null where the file does not say it.
 */
export interface ToolImport {
  tool: ImportTool;
  /** When the benchmark ran, ISO; null when the file does not say. */
  startedAt: string | null;
  finishedAt: string | null;
  /** Endpoint URLs as the file names them (not checked: they are shown, never connected to). */
  endpoints: string[];
  /** The tool's command line, as the file keeps it (cut at IMPORT_LIMITS.commandChars). */
  command: string | null;
  points: ImportedPoint[];
  /** What the file does not carry, one line each. */
  notCarried: string[];
}

/** One configuration the tool ran (fio: a job), with its operations. */
export interface ImportedPoint {
  /** Concurrent clients (threads, jobs). */
  clients: number;
  /** The (most common) object or block size, bytes. */
  objectSizeBytes: number;
  phases: ImportedPhase[];
}

/**
 * A file that cannot be read as the format it claims: one line naming where (line, field) and
 * what was expected. Nothing of such a file is imported.
 */
export class ImportFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImportFileError";
  }
}

/**
 * The most lines, requests, phases or bins an import reads: a file past them is refused rather
 * than read into memory without end.
 */
export const IMPORT_LIMITS = {
  requests: 2_000_000,
  lineChars: 64 * 1024,
  phases: 64,
  bins: 10_000,
  endpoints: 64,
  commandChars: 4096,
} as const;

/** A value shown in an error message: quoted, and cut short when long. */
export function shownValue(value: string): string {
  const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  return JSON.stringify(shown);
}
