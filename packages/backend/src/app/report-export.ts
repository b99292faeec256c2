import type { ExportedFile, TailLabService } from "@taillab/api";
import type { ResultsStore } from "@taillab/store";
import { renderStoredReport, storedRequestsCsv } from "../run-report.ts";

type ExportRequest = Parameters<TailLabService["exportReport"]>[0];

const MIME_TYPES = {
  csv: "text/csv;charset=utf-8",
  json: "application/json;charset=utf-8",
  html: "text/html;charset=utf-8",
} as const;

/**
 * A report as a file to save: one run as CSV, JSON or HTML, named after the run
 * (`taillab-<name>-<runId>.html`, `…-requests.csv` for one row per request, `…-per-second.csv`
 * for one per second), or several
 * compared (`taillab-comparison-3-runs.html`).
 */
export async function exportReport(
  store: ResultsStore,
  request: ExportRequest,
): Promise<ExportedFile> {
  const { runIds, format } = request;
  const content = await renderStoredReport(store, runIds, request);
  const [only] = runIds;
  const kind =
    format !== "csv" ? "" : request.requests ? "-requests" : request.perSecond ? "-per-second" : "";
  const fileName =
    runIds.length === 1 && only !== undefined
      ? `taillab-${runSlug((await store.get(only)).meta.name, only)}${kind}.${format}`
      : `taillab-comparison-${runIds.length}-runs.${format}`;
  return { fileName, mimeType: MIME_TYPES[format], content };
}

/** A per-request CSV to save chunk by chunk: the whole file is never held (runs of millions). */
export interface RequestsCsvFile {
  fileName: string;
  mimeType: string;
  /** Read lazily: a writer that waits for each chunk to drain holds one chunk at a time. */
  chunks: AsyncIterable<string>;
}

/**
 * One run's per-request CSV as `exportReport` names it, for a host that writes it to the user
 * as it is read (the browser host's download, the desktop app's save). An unknown or damaged
 * run fails here, before anything is written.
 */
export async function requestsCsvFile(
  store: ResultsStore,
  runId: string,
  { bom }: { bom: boolean },
): Promise<RequestsCsvFile> {
  const { meta } = await store.get(runId);
  return {
    fileName: `taillab-${runSlug(meta.name, runId)}-requests.csv`,
    mimeType: MIME_TYPES.csv,
    chunks: storedRequestsCsv(store, [runId], { bom }),
  };
}

/** The name and the id, once: a run not renamed is called "run <id>" already. */
export function runSlug(name: string, runId: string): string {
  const slug = fileNameSlug(name);
  return slug.includes(runId) ? slug : `${slug}-${runId}`;
}

/** Lowercase ASCII letters and digits joined by hyphens; "run" when nothing of the name is left. */
function fileNameSlug(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, 60)
    .replace(/^-+|-+$/g, "");
  return slug || "run";
}
