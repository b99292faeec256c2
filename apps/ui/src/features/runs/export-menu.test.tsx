import type { ExportInput } from "@taillab/api";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useAppInfo } from "../../app/app-info-store.ts";
import { useSettings } from "../../app/settings-store.ts";
import { installFakeTailLab } from "../../shared/test-support/fake-taillab.ts";
import { renderUi } from "../../shared/test-support/render.tsx";
import { ExportMenu } from "./export-menu.tsx";

/** Catches what the browser would download: the file name and the Blob's text. */
function catchDownloads() {
  const downloads: { fileName: string; type: string; text: Promise<string> }[] = [];
  const blobs = new Map<string, Blob>();
  vi.spyOn(URL, "createObjectURL").mockImplementation((blob) => {
    const url = `blob:test/${blobs.size}`;
    blobs.set(url, blob as Blob);
    return url;
  });
  vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    const blob = blobs.get(this.href) as Blob;
    downloads.push({ fileName: this.download, type: blob.type, text: blob.text() });
  });
  return downloads;
}

const FILES = {
  csv: {
    fileName: "lab-3.summary.csv",
    mimeType: "text/csv",
    content: "Run ID,Run Name\r\nr1,Lab 3\r\n",
  },
  "csv-per-second": {
    fileName: "lab-3-per-second.csv",
    mimeType: "text/csv",
    content: "Run ID,Point\r\nr1,1\r\n",
  },
  "csv-requests": {
    fileName: "lab-3.requests.csv",
    mimeType: "text/csv",
    content: "point,op\r\n0,PUT\r\n",
  },
  json: { fileName: "lab-3.json", mimeType: "application/json", content: '{"kind":"taillab-run"}' },
  html: {
    fileName: "lab-3.html",
    mimeType: "text/html",
    content: "<!doctype html><title>r</title>",
  },
};

describe("ExportMenu", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    useSettings.setState({ language: "en" });
    useAppInfo.setState({ info: null, asking: false });
  });

  it.each([
    ["csv", { format: "csv", requests: false, perSecond: false }],
    ["csv-per-second", { format: "csv", requests: false, perSecond: true }],
    ["csv-requests", { format: "csv", requests: true, perSecond: false }],
    ["json", { format: "json", requests: false, perSecond: false }],
    ["html", { format: "html", requests: false, perSecond: false }],
  ] as const)("%s: asks the backend and downloads its file", async (kind, expected) => {
    const downloads = catchDownloads();
    const api = installFakeTailLab({
      // The desktop app: the browser host streams the per-request CSV instead (below).
      appInfo: vi.fn(async () => ({
        version: "0.0.0",
        host: "electron" as const,
        resultsDir: "",
        dataDir: "",
      })),
      exportReport: vi.fn(async (input: ExportInput) => {
        const csvKind = input.requests
          ? "csv-requests"
          : input.perSecond
            ? "csv-per-second"
            : "csv";
        const key = input.format === "csv" ? csvKind : input.format;
        return FILES[key];
      }),
    });
    renderUi(<ExportMenu runIds={["r1"]} perRequestCsv />);
    fireEvent.click(screen.getByTestId(`export-${kind}`));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(api.exportReport).toHaveBeenCalledWith({
      runIds: ["r1"],
      language: "en",
      baselineIndex: 0,
      ...expected,
    });
    expect(downloads[0]!.fileName).toBe(FILES[kind].fileName);
    expect(downloads[0]!.type).toBe(FILES[kind].mimeType);
    expect(await downloads[0]!.text).toBe(FILES[kind].content);
  });

  it("csv-requests in the browser host: the host's streamed download, no whole file asked for", async () => {
    const clicked: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push({ href: this.getAttribute("href") ?? "", download: this.download });
    });
    const api = installFakeTailLab();
    renderUi(<ExportMenu runIds={["r 1"]} perRequestCsv />);
    fireEvent.click(screen.getByTestId("export-csv-requests"));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]).toEqual({ href: "/download/requests.csv?runId=r+1", download: "" });
    expect(api.exportReport).not.toHaveBeenCalled();
  });

  it("csv-requests in the desktop app: saved by its main process, no whole file asked for", async () => {
    const saveRequestsCsv = vi.fn(async () => ({ ok: true as const, result: { saved: true } }));
    window.taillabFiles = { saveRequestsCsv };
    try {
      const api = installFakeTailLab();
      renderUi(<ExportMenu runIds={["r1"]} perRequestCsv />);
      fireEvent.click(screen.getByTestId("export-csv-requests"));
      await waitFor(() => expect(saveRequestsCsv).toHaveBeenCalledWith({ runId: "r1" }));
      expect(api.exportReport).not.toHaveBeenCalled();
    } finally {
      delete window.taillabFiles;
    }
  });

  it("exports a comparison in the UI's language with its baseline", async () => {
    catchDownloads();
    useSettings.setState({ language: "zh-CN" });
    const api = installFakeTailLab({ exportReport: vi.fn(async () => FILES.html) });
    renderUi(<ExportMenu runIds={["a", "b", "c"]} baselineIndex={2} testIdPrefix="compare-" />);
    expect(screen.queryByTestId("compare-export-csv-requests")).toBeNull();
    fireEvent.click(screen.getByTestId("compare-export-html"));
    await waitFor(() => expect(api.exportReport).toHaveBeenCalled());
    expect(api.exportReport).toHaveBeenCalledWith(
      expect.objectContaining({ runIds: ["a", "b", "c"], language: "zh-CN", baselineIndex: 2 }),
    );
  });

  it("says why an export failed", async () => {
    catchDownloads();
    installFakeTailLab({
      exportReport: vi.fn(async () => {
        throw new Error("per-request CSV is for one run at a time");
      }),
    });
    renderUi(<ExportMenu runIds={["a"]} />);
    fireEvent.click(screen.getByTestId("export-json"));
    expect((await screen.findByTestId("export-error")).textContent).toBe(
      "per-request CSV is for one run at a time",
    );
  });

  it("has nothing to export without runs", () => {
    installFakeTailLab();
    renderUi(<ExportMenu runIds={[]} testIdPrefix="selection-" />);
    expect((screen.getByTestId("selection-export-csv") as HTMLButtonElement).disabled).toBe(true);
  });
});
