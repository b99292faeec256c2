import { REQUEST_RECORD_FIELDS, type RequestRecord } from "@taillab/api";
import { csvRow, UTF8_BOM } from "./csv.ts";

/** requests.csv: one row per request, its run point first, then the record's own fields. */
export const REQUESTS_CSV_HEADER = csvRow(["point", ...REQUEST_RECORD_FIELDS]);

export function requestsCsvRows(pointIndex: number, records: readonly RequestRecord[]): string {
  let rows = "";
  for (const record of records) {
    rows += csvRow([pointIndex, ...REQUEST_RECORD_FIELDS.map((field) => record[field])]);
  }
  return rows;
}

/** Rows in one chunk of a streamed requests.csv. */
export const REQUESTS_CSV_CHUNK_ROWS = 1024;

/**
 * requests.csv as chunks of text, each made of at most `chunkRows` rows taken from `rows` only
 * when the chunk is asked for: an export of millions of requests holds one chunk, never the
 * whole file (it once held the run's records and its whole text: 1.87 GB for 3 M requests).
 */
export async function* requestsCsvChunks(
  rows: AsyncIterable<{ pointIndex: number; record: RequestRecord }>,
  { bom = false, chunkRows = REQUESTS_CSV_CHUNK_ROWS }: { bom?: boolean; chunkRows?: number } = {},
): AsyncGenerator<string> {
  yield (bom ? UTF8_BOM : "") + REQUESTS_CSV_HEADER;
  let chunk = "";
  let count = 0;
  for await (const { pointIndex, record } of rows) {
    chunk += requestsCsvRows(pointIndex, [record]);
    count += 1;
    if (count === chunkRows) {
      yield chunk;
      chunk = "";
      count = 0;
    }
  }
  if (count > 0) yield chunk;
}
