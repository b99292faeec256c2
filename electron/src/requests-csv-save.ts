import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  SAVE_REQUESTS_CSV_CHANNEL,
  SaveRequestsCsvInputSchema,
  toApiError,
  type ApiEnvelope,
  type RequestsCsvSaved,
} from "@taillab/api";
import type { TailLabBackend } from "@taillab/backend";
import type { BrowserWindow, Dialog, IpcMain, IpcMainInvokeEvent } from "electron";
import { assertAppMainFrame } from "./ipc.ts";

/**
 * The per-request CSV export: the user picks where in a save dialog, and the main process writes
 * the backend's chunks there as they are read, each once the file took the one before, so a run
 * of millions of requests is never held whole (exportReport's one answer would be).
 */
export function handleRequestsCsvSave(
  ipcMain: IpcMain,
  service: Pick<TailLabBackend, "requestsCsvFile">,
  dialog: Pick<Dialog, "showSaveDialog">,
  windowOf: (event: IpcMainInvokeEvent) => BrowserWindow | null,
): () => void {
  ipcMain.handle(
    SAVE_REQUESTS_CSV_CHANNEL,
    async (event, input: unknown): Promise<ApiEnvelope<RequestsCsvSaved>> => {
      assertAppMainFrame(event, SAVE_REQUESTS_CSV_CHANNEL);
      const parsed = SaveRequestsCsvInputSchema.safeParse(input);
      if (!parsed.success) {
        return { ok: false, error: { message: `saveRequestsCsv: ${parsed.error.message}` } };
      }
      try {
        const file = await service.requestsCsvFile(parsed.data.runId, { bom: parsed.data.bom });
        const options = {
          defaultPath: file.fileName,
          filters: [{ name: "CSV", extensions: ["csv"] }],
        };
        const window = windowOf(event);
        const choice = await (window
          ? dialog.showSaveDialog(window, options)
          : dialog.showSaveDialog(options));
        if (choice.canceled || !choice.filePath) return { ok: true, result: { saved: false } };
        await pipeline(
          Readable.from(file.chunks, { objectMode: false }),
          createWriteStream(choice.filePath),
        );
        return { ok: true, result: { saved: true } };
      } catch (error) {
        return { ok: false, error: toApiError(error) };
      }
    },
  );
  return () => ipcMain.removeHandler(SAVE_REQUESTS_CSV_CHANNEL);
}
