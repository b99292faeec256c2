import { open } from "node:fs/promises";
import { basename } from "node:path";
import { zstdDecompressSync } from "node:zlib";
import {
  InputError,
  RESULTS_SCHEMA_VERSION,
  RUN_FOLDER_SCHEMA_VERSION,
  RunExportSchema,
  RunSpecSchema,
  type PhaseHistograms,
  type RunExport,
} from "@taillab/api";
import { IMPORT_LIMITS, ImportFileError, readToolFile, type ToolImport } from "@taillab/core";

/**
 * Another benchmark's result file as a run the library can keep: read with bounds (a file is
 * not trusted to be what its name says, nor to be small), decompressed when it is zstd (warp's
 * .csv.zst), read by core's readers, and shaped as an export the store imports whole.
 */

/** The most bytes read from the file, and the most its zstd stream may expand to. */
export const TOOL_FILE_LIMITS = { fileBytes: 256 * 1024 * 1024, textBytes: 512 * 1024 * 1024 };

const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);

export interface ToolFileText {
  text: string;
  /** The file's last change, which dates a run whose file says not when it ran. */
  changedAt: Date;
}

/** The file's text; an InputError naming the file when it cannot be read as text. */
export async function readToolFileText(
  source: string,
  limits: typeof TOOL_FILE_LIMITS = TOOL_FILE_LIMITS,
): Promise<ToolFileText> {
  const refuse = (reason: string) => InputError.of("path", `${source}: ${reason}`);
  const handle = await open(source, "r").catch((error: NodeJS.ErrnoException) => {
    throw refuse(error.code === "ENOENT" ? "there is no such file" : error.message);
  });
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw refuse("is not a file");
    if (stats.size > limits.fileBytes) {
      throw refuse(`${stats.size} bytes; an import reads files of at most ${limits.fileBytes}`);
    }
    let bytes: Buffer = await handle.readFile();
    if (bytes.subarray(0, 4).equals(ZSTD_MAGIC)) {
      try {
        bytes = zstdDecompressSync(bytes, { maxOutputLength: limits.textBytes });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        throw refuse(
          code === "ERR_BUFFER_TOO_LARGE"
            ? `expands past ${limits.textBytes} bytes; an import reads at most that much`
            : `its zstd stream cannot be decompressed (${(error as Error).message})`,
        );
      }
    }
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw refuse("is not UTF-8 text (nor zstd-compressed text)");
    }
    return { text, changedAt: stats.mtime };
  } finally {
    await handle.close();
  }
}

/**
 * The run of a tool's file as an export (run.json, summary.json, histograms.json): figures as
 * core computed them, the file's own name and what it does not carry in run.json's `imported`.
 * An id is proposed from the tool and when it ran; the store makes it unique.
 */
export function toolRunExport(
  source: string,
  { text, changedAt }: ToolFileText,
  importedAt: Date,
): RunExport {
  const file = basename(source);
  let read: ToolImport;
  try {
    read = readToolFile(text);
  } catch (error) {
    if (error instanceof ImportFileError)
      throw InputError.of("path", `${source}: ${error.message}`);
    throw error;
  }
  const startedAt = read.startedAt ?? changedAt.toISOString();
  const finishedAt = read.finishedAt ?? startedAt;
  const params = read.points.map((point) => ({
    clients: point.clients,
    samples: Math.max(1, ...point.phases.map((phase) => phase.summary.requests)),
    objectSizeBytes: point.objectSizeBytes,
  }));
  const [first] = params;
  const id = `${read.tool}-${startedAt.replace(/[-:]/g, "").replace("T", "-").slice(0, 15)}`;
  const spec = RunSpecSchema.parse({
    name: `${read.tool}: ${file}`,
    phases: ["write", "read"],
    points: params.map(({ clients, samples, objectSizeBytes }) => ({
      clients,
      samples,
      objectSize: objectSizeBytes,
    })),
    clients: [first?.clients ?? 1],
    samples: [first?.samples ?? 1],
    objectSize: [first?.objectSizeBytes ?? 1],
  });
  const histograms: PhaseHistograms[] = read.points.flatMap((point, pointIndex) =>
    point.phases.flatMap(({ summary, histograms: encoded }) =>
      encoded === null
        ? []
        : [
            {
              pointIndex,
              op: summary.op,
              latency: encoded.latency,
              clientQueue: null,
              connect: null,
              service: null,
              upload: null,
              ttfb: encoded.ttfb,
              transfer: encoded.transfer,
            },
          ],
    ),
  );
  return RunExportSchema.parse({
    schemaVersion: RUN_FOLDER_SCHEMA_VERSION,
    kind: "taillab-run",
    meta: {
      schemaVersion: RUN_FOLDER_SCHEMA_VERSION,
      id,
      name: `${read.tool}: ${file}`,
      tags: [],
      notes: (read.command ?? "").slice(0, IMPORT_LIMITS.commandChars),
      createdAt: startedAt,
      spec,
      // Not carried by any of these files: `imported` says so, and the views show it instead.
      environment: {
        taillabVersion: "",
        os: "",
        cpuModel: "",
        cpuCount: 1,
        memoryBytes: 0,
        node: "",
        server: null,
      },
      keyPrefix: "",
      status: "complete",
      error: null,
      cleanup: null,
      recordsWritten: null,
      imported: {
        tool: read.tool,
        file,
        importedAt: importedAt.toISOString(),
        notCarried: read.notCarried,
      },
    },
    summary: {
      schemaVersion: RESULTS_SCHEMA_VERSION,
      runId: id,
      startedAt,
      finishedAt,
      spec,
      endpointUrls: read.endpoints.slice(0, IMPORT_LIMITS.endpoints),
      server: null,
      mode: "normal",
      loop: "closed",
      status: "complete",
      pointCount: read.points.length,
      points: read.points.map((point, index) => ({
        params: params[index],
        finished: true,
        phases: point.phases.map((phase) => phase.summary),
      })),
    },
    histograms,
    intervalLog: "",
  });
}
