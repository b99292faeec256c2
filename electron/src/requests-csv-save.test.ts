import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SAVE_REQUESTS_CSV_CHANNEL } from "@taillab/api";
import type { Dialog, IpcMain, IpcMainInvokeEvent } from "electron";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { handleRequestsCsvSave } from "./requests-csv-save.ts";

type Handler = (event: IpcMainInvokeEvent, input: unknown) => Promise<unknown>;

const APP_PAGE = { senderFrame: { url: "app://taillab/index.html", parent: null } };
const CHUNKS = ["point,op\r\n", "0,PUT\r\n", "0,GET\r\n"];

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "taillab-csv-save-"));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** The handler with a CSV whose chunks record when they are taken, and a dialog answering `path`. */
function setUp(path: string | null) {
  let handler: Handler | undefined;
  const ipcMain = { handle: vi.fn((_channel: string, given: Handler) => (handler = given)) };
  const taken: string[] = [];
  async function* chunks() {
    for (const chunk of CHUNKS) {
      taken.push(chunk);
      yield chunk;
    }
  }
  const service = {
    requestsCsvFile: vi.fn(async () => ({
      fileName: "taillab-lab-r1-requests.csv",
      mimeType: "text/csv;charset=utf-8",
      chunks: chunks(),
    })),
  };
  const dialog = {
    showSaveDialog: vi.fn(async () =>
      path === null ? { canceled: true, filePath: "" } : { canceled: false, filePath: path },
    ),
  };
  handleRequestsCsvSave(
    ipcMain as unknown as IpcMain,
    service,
    dialog as unknown as Dialog,
    () => null,
  );
  expect(ipcMain.handle).toHaveBeenCalledWith(SAVE_REQUESTS_CSV_CHANNEL, expect.any(Function));
  const invoke = (input: unknown, event: object = APP_PAGE) =>
    handler!(event as IpcMainInvokeEvent, input);
  return { invoke, service, dialog, taken };
}

describe("handleRequestsCsvSave", () => {
  it("writes the chunks where the user chose, named as the export names it", async () => {
    const path = join(folder, "chosen.csv");
    const { invoke, service, dialog, taken } = setUp(path);
    await expect(invoke({ runId: "r1", bom: true })).resolves.toEqual({
      ok: true,
      result: { saved: true },
    });
    expect(service.requestsCsvFile).toHaveBeenCalledWith("r1", { bom: true });
    expect(dialog.showSaveDialog).toHaveBeenCalledWith(
      expect.objectContaining({ defaultPath: "taillab-lab-r1-requests.csv" }),
    );
    expect(taken).toEqual(CHUNKS);
    expect(await readFile(path, "utf8")).toBe(CHUNKS.join(""));
  });

  it("reads nothing and writes nothing when the dialog is cancelled", async () => {
    const { invoke, taken } = setUp(null);
    await expect(invoke({ runId: "r1" })).resolves.toEqual({ ok: true, result: { saved: false } });
    expect(taken).toEqual([]);
  });

  it("refuses another page, and answers bad input and a failed export as envelopes", async () => {
    const { invoke, service } = setUp(join(folder, "x.csv"));
    await expect(
      invoke({ runId: "r1" }, { senderFrame: { url: "https://evil.example/", parent: null } }),
    ).rejects.toThrow(/only the app's own page may call it/);
    await expect(invoke({ runId: "" })).resolves.toMatchObject({ ok: false });
    service.requestsCsvFile.mockRejectedValueOnce(new Error("run r9: unknown run"));
    await expect(invoke({ runId: "r9" })).resolves.toEqual({
      ok: false,
      error: { message: "run r9: unknown run" },
    });
    expect(service.requestsCsvFile).toHaveBeenCalledOnce();
  });
});
