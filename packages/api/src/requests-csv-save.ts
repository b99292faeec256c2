import { z } from "zod";
import type { ApiEnvelope } from "./api-error.ts";

/**
 * The desktop app's save of one run's per-request CSV: too large for one API answer, it is
 * written by the main process, chunk by chunk, where the user chose in a save dialog.
 */
export const SAVE_REQUESTS_CSV_CHANNEL = "taillab:saveRequestsCsv";

export const SaveRequestsCsvInputSchema = z.object({
  runId: z.string().min(1),
  /** A UTF-8 byte-order mark, for Excel. */
  bom: z.boolean().default(false),
});
export type SaveRequestsCsvInput = z.input<typeof SaveRequestsCsvInputSchema>;

/** False when the user cancelled the dialog. */
export type RequestsCsvSaved = { saved: boolean };

/** `window.taillabFiles`, exposed by Electron's preload only. */
export interface TailLabFilesBridge {
  saveRequestsCsv(input: SaveRequestsCsvInput): Promise<ApiEnvelope<RequestsCsvSaved>>;
}
