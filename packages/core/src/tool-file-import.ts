import {
  ELBENCHO_CSV_START,
  ELBENCHO_JSON_START,
  readElbenchoCsv,
  readElbenchoJson,
} from "./elbencho-import.ts";
import { readFioJson } from "./fio-json-import.ts";
import { readS3benchText, S3BENCH_SUMMARY_START } from "./s3bench-text-import.ts";
import { ImportFileError, type ToolImport } from "./tool-import.ts";
import { readWarpCsv, WARP_CSV_HEADER_START } from "./warp-csv-import.ts";
import { readWarpJson, WARP_JSON_KEYS } from "./warp-json-import.ts";

/**
 * Another benchmark's result file, known by what it holds rather than by its name (a file may
 * be renamed): warp's per-request CSV and aggregate JSON (decompressed), fio's json+ report,
 * elbencho's --jsonfile and --csvfile results, s3bench's printed results.
 */
export function readToolFile(text: string): ToolImport {
  if (text.startsWith(WARP_CSV_HEADER_START)) return readWarpCsv(text);
  if (text.startsWith(ELBENCHO_CSV_START)) return readElbenchoCsv(text);
  if (text.trimStart().startsWith(ELBENCHO_JSON_START)) return readElbenchoJson(text);
  if (text.trimStart().startsWith("{")) {
    if (text.includes('"fio version"')) return readFioJson(text);
    if (WARP_JSON_KEYS.every((key) => text.includes(key))) return readWarpJson(text);
    throw new ImportFileError(
      "a JSON file that is neither a TailLab export, warp's aggregate, fio's json+ report nor elbencho's results",
    );
  }
  if (text.includes(S3BENCH_SUMMARY_START)) return readS3benchText(text);
  throw new ImportFileError(
    "not a result file TailLab reads: expected warp's .csv.zst or .json.zst, s3bench's printed output, fio's --output-format=json+ report or elbencho's --jsonfile or --csvfile",
  );
}
