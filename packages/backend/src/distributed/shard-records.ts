import {
  DISTRIBUTED_SCHEMA_VERSION,
  ShardRecordLineSchema,
  ShardRecordsHeaderSchema,
  type RequestRecord,
  type ShardRecordLine,
  type ShardRecordsHeader,
} from "@taillab/api";
import { Readable } from "node:stream";
import { createInterface } from "node:readline";
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
 * Reads an uploaded records file back: its header, then batches of records by point, each
 * checked against the contract. `where` names the file in errors.
 */
export async function* readShardRecords(
  bytes: Uint8Array,
  where: string,
  batchSize = 4096,
): AsyncGenerator<
  { header: ShardRecordsHeader } | { pointIndex: number; records: RequestRecord[] }
> {
  const lines = createInterface({
    input: Readable.from([bytes]).pipe(createGunzip()),
    crlfDelay: Infinity,
  });
  let lineNumber = 0;
  let batch: { pointIndex: number; records: RequestRecord[] } | null = null;
  for await (const line of lines) {
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
  if (batch) yield batch;
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
