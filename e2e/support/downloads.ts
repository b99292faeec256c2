import { test, type Locator, type Page } from "@playwright/test";
import { readFile } from "node:fs/promises";

export interface DownloadedFile {
  fileName: string;
  /** Where the file was saved, in the test's output folder. */
  path: string;
  text: string;
}

/** Clicks a button that downloads a file, saves the file beside the test's output and reads it. */
export async function downloadFrom(page: Page, button: Locator): Promise<DownloadedFile> {
  const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
  const fileName = download.suggestedFilename();
  const path = test.info().outputPath("downloads", fileName);
  await download.saveAs(path);
  return { fileName, path, text: await readFile(path, "utf8") };
}

/** The rows of an RFC 4180 CSV file (quoted fields may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index];
    if (quoted) {
      if (char === '"' && body[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      row.push(field);
      field = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && body[index + 1] === "\n") index += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += char;
  }
  if (field !== "" || row.length > 0) rows.push([...row, field]);
  return rows;
}

/**
 * Addresses an HTML file would fetch from elsewhere: src/href/url() that are not inline
 * (data:, #fragment) — a self-contained report has none.
 */
export function externalReferences(html: string): string[] {
  const found: string[] = [];
  const attribute = /\s(?:src|href|srcset|poster|action)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;
  for (const match of html.matchAll(attribute)) {
    const value = (match[1] ?? match[2] ?? match[3] ?? "").trim();
    if (value === "" || value.startsWith("#") || value.startsWith("data:")) continue;
    found.push(value);
  }
  for (const match of html.matchAll(/url\(\s*['"]?([^'")]+)['"]?\s*\)/gi)) {
    const value = (match[1] ?? "").trim();
    if (!value.startsWith("data:") && !value.startsWith("#")) found.push(value);
  }
  for (const match of html.matchAll(/@import\s+[^;]+;/gi)) found.push(match[0]);
  return found;
}
