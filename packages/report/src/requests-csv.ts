import { REQUEST_RECORD_FIELDS, type RequestRecord } from "@taillab/api";
import { csvRow } from "./csv.ts";

/** requests.csv: one row per request, its run point first, then the record's own fields. */
export const REQUESTS_CSV_HEADER = csvRow(["point", ...REQUEST_RECORD_FIELDS]);

export function requestsCsvRows(pointIndex: number, records: readonly RequestRecord[]): string {
  let rows = "";
  for (const record of records) {
    rows += csvRow([pointIndex, ...REQUEST_RECORD_FIELDS.map((field) => record[field])]);
  }
  return rows;
}
