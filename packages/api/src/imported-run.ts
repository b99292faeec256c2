import { z } from "zod";

/** The benchmarks whose result files `taillab runs import` reads. */
export const ImportToolSchema = z.enum(["warp", "s3bench", "fio", "elbencho"]);
export type ImportTool = z.infer<typeof ImportToolSchema>;

/**
 * Where an imported run came from (run.json's `imported`): the tool whose file it was read from,
 * and what that file does not carry, one line each, so no figure is taken for measured when the
 * source never had it.
 */
export const ImportSourceSchema = z.object({
  tool: ImportToolSchema,
  /** The file's name (not its folder: a path may say more about a machine than a result should). */
  file: z.string(),
  importedAt: z.iso.datetime(),
  /** `client queue, connect and upload times: warp records start, first byte and end only`. */
  notCarried: z.array(z.string()),
});
export type ImportSource = z.infer<typeof ImportSourceSchema>;

/** The latency figures a tool may print, named as LatencyStats names them. */
export const ToolLatencyFigureSchema = z.enum([
  "min",
  "p25",
  "p50",
  "p75",
  "p90",
  "p99",
  "p999",
  "p9999",
  "max",
  "mean",
  "stdev",
]);
export type ToolLatencyFigure = z.infer<typeof ToolLatencyFigureSchema>;

/**
 * Latency figures (ms) as an imported tool printed them, for a phase whose file keeps no
 * per-request data to recompute them from: only those it printed, by its own definition.
 */
export const ToolLatencyMsSchema = z.partialRecord(ToolLatencyFigureSchema, z.number().min(0));
export type ToolLatencyMs = z.infer<typeof ToolLatencyMsSchema>;
