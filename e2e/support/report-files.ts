import { expect, type BrowserContext, type Page } from "@playwright/test";
import { pathToFileURL } from "node:url";
import { externalReferences, parseCsv, type DownloadedFile } from "./downloads.ts";

/** A summary CSV as exported: s3bench's header, then one row per run × point × phase. */
export function expectSummaryCsv(file: DownloadedFile, rows: number): string[][] {
  expect(file.fileName).toMatch(/\.csv$/);
  const [header, ...body] = parseCsv(file.text).filter((row) => row.some((cell) => cell !== ""));
  expect(header).toEqual(
    expect.arrayContaining(["Run ID", "Operation", "Mode", "99.9th %ile (ms)", "Requests"]),
  );
  expect(body, `${file.fileName} rows`).toHaveLength(rows);
  for (const row of body) expect(row).toHaveLength(header!.length);
  return [header!, ...body];
}

/** An HTML report that opens offline: no script, style, image or link fetched from elsewhere. */
export function expectSelfContainedHtml(file: DownloadedFile, mentions: string[]): void {
  expect(file.fileName).toMatch(/\.html$/);
  expect(file.text).toMatch(/^<!doctype html>/i);
  expect(externalReferences(file.text), "addresses the report would fetch").toEqual([]);
  // Charts are drawn into the file (inline SVG), not loaded.
  expect(file.text).toContain("<svg");
  for (const text of mentions) expect(file.text).toContain(text);
}

interface RunExportFile {
  kind: string;
  meta: { id: string; name: string };
  summary: {
    mode: string;
    points: { phases: { op: string; hedge?: { wonByBackup: number } }[] }[];
  };
}

/** A run exported as JSON (kind "taillab-run"); a comparison's file is an array of them. */
export function parseRunJson(file: DownloadedFile): RunExportFile[] {
  expect(file.fileName).toMatch(/\.json$/);
  const parsed = JSON.parse(file.text) as RunExportFile | RunExportFile[];
  const runs = Array.isArray(parsed) ? parsed : [parsed];
  for (const run of runs) expect(run.kind).toBe("taillab-run");
  return runs;
}

/**
 * Opens a downloaded HTML report as a user does (a file, no server) in a new tab of the same
 * browser, every network request refused; returns the tab and what it tried to fetch.
 */
export async function openReportOffline(
  context: BrowserContext,
  file: DownloadedFile,
): Promise<{ page: Page; fetched: string[]; errors: string[] }> {
  const page = await context.newPage();
  const fetched: string[] = [];
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.route(/^(https?|wss?):/, async (route) => {
    fetched.push(route.request().url());
    await route.abort();
  });
  await page.goto(pathToFileURL(file.path).href);
  return { page, fetched, errors };
}
