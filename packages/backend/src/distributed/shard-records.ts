import {
  DISTRIBUTED_SCHEMA_VERSION,
  ShardRecordLineSchema,
  ShardRecordsHeaderSchema,
  type RequestRecord,
  type ShardRecordLine,
  type ShardRecordsHeader,
} from "@taillab/api";
import type { Readable } from "node:stream";
import { createGunzip, createGzip } from "node:zlib";

/**
 * A shard's records as it uploads them: gzipped JSON lines, a ShardRecordsHeader first, then one
 * [point index, record] per attempt. Compressed as they come, so a shard holds the compressed
 * bytes only (about 40 bytes a record).
 */
export interface ShardRecordsWriter {
  add(pointIndex: number, records: readonly RequestRecord[]): void;
  /** Everything written, compressed. */
  finish(): Promise<{ bytes: Uint8Array; count: number }>;
}

export function createShardRecordsWriter(
  header: Omit<ShardRecordsHeader, "schemaVersion" | "kind">,
): ShardRecordsWriter {
  const gzip = createGzip();
  const chunks: Buffer[] = [];
  gzip.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    gzip.once("end", resolve);
    gzip.once("error", reject);
  });
  const full: ShardRecordsHeader = {
    schemaVersion: DISTRIBUTED_SCHEMA_VERSION,
    kind: "taillab-shard-records",
    ...header,
  };
  gzip.write(`${JSON.stringify(full)}\n`);
  let count = 0;
  return {
    add(pointIndex, records) {
      if (records.length === 0) return;
      const lines = records.map((record) =>
        JSON.stringify([pointIndex, record] satisfies ShardRecordLine),
      );
      gzip.write(`${lines.join("\n")}\n`);
      count += records.length;
    },
    async finish() {
      gzip.end();
      await ended;
      return { bytes: Buffer.concat(chunks), count };
    },
  };
}

/**
 * The longest records line read: a record is a few hundred bytes (a key of at most 1024, an
 * error code of at most 128 characters). A longer line is damage, or a file made to fill memory.
 */
export const RECORD_LINE_MAX_BYTES = 64 * 1024;

/**
 * Reads an uploaded records file back from its gzipped bytes, as they come: its header, then
 * batches of records by point, each checked against the contract, lines at most
 * RECORD_LINE_MAX_BYTES. Throws an Error naming the file (`where`) and the line on anything else:
 * damaged gzip, a line too long, not a record.
 */
export async function* readShardRecords(
  gzipped: Readable,
  where: string,
  batchSize = 4096,
): AsyncGenerator<
  { header: ShardRecordsHeader } | { pointIndex: number; records: RequestRecord[] }
> {
  let lineNumber = 0;
  let batch: { pointIndex: number; records: RequestRecord[] } | null = null;
  const gunzip = createGunzip();
  // pipe() leaves the source's failure (a file that cannot be read) with the source.
  gzipped.once("error", (error) => gunzip.destroy(error));
  try {
    for await (const line of boundedLines(gzipped.pipe(gunzip), where)) {
      lineNumber += 1;
      if (line === "") continue;
      const value = parseLine(line, where, lineNumber);
      if (lineNumber === 1) {
        const header = ShardRecordsHeaderSchema.safeParse(value);
        if (!header.success) throw new Error(`${where}: not a TailLab shard's records (line 1)`);
        yield { header: header.data };
        continue;
      }
      const [pointIndex, record] = parseRecordLine(value, where, lineNumber);
      if (batch && (batch.pointIndex !== pointIndex || batch.records.length >= batchSize)) {
        yield batch;
        batch = null;
      }
      batch ??= { pointIndex, records: [] };
      batch.records.push(record);
    }
  } finally {
    gzipped.destroy();
  }
  if (batch) yield batch;
}

/** The lines of `input`, each at most RECORD_LINE_MAX_BYTES; a damaged stream names `where`. */
async function* boundedLines(input: Readable, where: string): AsyncGenerator<string> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNumber = 0;
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      let from = 0;
      for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, from)) {
        pending.push(chunk.subarray(from, end));
        pendingBytes += end - from;
        lineNumber += 1;
        if (pendingBytes > RECORD_LINE_MAX_BYTES) break;
        yield Buffer.concat(pending).toString("utf8");
        pending = [];
        pendingBytes = 0;
        from = end + 1;
      }
      if (pendingBytes <= RECORD_LINE_MAX_BYTES) {
        pending.push(chunk.subarray(from));
        pendingBytes += chunk.length - from;
      }
      if (pendingBytes > RECORD_LINE_MAX_BYTES) {
        throw new Error(
          `${where}: line ${lineNumber + 1} is longer than ${RECORD_LINE_MAX_BYTES} bytes`,
        );
      }
    }
  } catch (error) {
    if ((error as Error).message.startsWith(where)) throw error;
    throw new Error(`${where}: not readable gzip (${(error as Error).message})`, { cause: error });
  } finally {
    input.destroy();
  }
  if (pendingBytes > 0) yield Buffer.concat(pending).toString("utf8");
}

function parseLine(line: string, where: string, lineNumber: number): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch (error) {
    throw new Error(`${where}: line ${lineNumber} is not JSON (${(error as Error).message})`, {
      cause: error,
    });
  }
}

function parseRecordLine(value: unknown, where: string, lineNumber: number): ShardRecordLine {
  const parsed = ShardRecordLineSchema.safeParse(value);
  if (!parsed.success)
    throw new Error(`${where}: line ${lineNumber} is not a [point, record] line`);
  return parsed.data;
}
