import type { RequestRecord } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { UTF8_BOM } from "./csv.ts";
import { REQUESTS_CSV_HEADER, requestsCsvChunks, requestsCsvRows } from "./requests-csv.ts";

function recordOf(index: number): RequestRecord {
  return {
    op: index % 3 === 0 ? "PUT" : "GET",
    key: `taillab/run/${index}`,
    bytes: 1024 + index,
    intendedStartUs: index * 10,
    readyUs: index * 10 + 1,
    sentUs: index * 10 + 2,
    headersUs: index * 10 + 5,
    firstByteUs: index * 10 + 6,
    endUs: index * 10 + 9,
    connectUs: 0,
    bodySentUs: index * 10 + 2,
    status: index % 17 === 0 ? 503 : 200,
    error: index % 17 === 0 ? 'SlowDown, "retry"' : null,
    attempt: 1,
    replica: 0,
    winner: true,
    phaseIndex: index % 2,
    client: index % 8,
    measured: true,
  };
}

describe("requests.csv streamed", () => {
  it("takes rows only as chunks are asked for: never more than one chunk's rows held", async () => {
    const total = 10_000;
    const chunkRows = 256;
    let produced = 0;
    async function* rows() {
      for (let index = 0; index < total; index += 1) {
        produced += 1;
        yield { pointIndex: index % 3, record: recordOf(index) };
      }
    }
    let consumed = 0;
    let chunks = 0;
    let text = "";
    for await (const chunk of requestsCsvChunks(rows(), { chunkRows })) {
      chunks += 1;
      consumed += chunk === REQUESTS_CSV_HEADER ? 0 : chunk.split("\r\n").length - 1;
      // The rows taken from the source and not yet handed on are at most one chunk's.
      expect(produced - consumed).toBeLessThanOrEqual(chunkRows);
      text += chunk;
    }
    expect(consumed).toBe(total);
    expect(chunks).toBe(1 + Math.ceil(total / chunkRows));
    // Byte for byte what the whole-file export wrote.
    let whole = REQUESTS_CSV_HEADER;
    for (let index = 0; index < total; index += 1) {
      whole += requestsCsvRows(index % 3, [recordOf(index)]);
    }
    expect(text).toBe(whole);
  });

  it("starts with the byte-order mark when asked; a run of no records is the header alone", async () => {
    const none = (async function* () {})();
    const chunks: string[] = [];
    for await (const chunk of requestsCsvChunks(none, { bom: true })) chunks.push(chunk);
    expect(chunks).toEqual([UTF8_BOM + REQUESTS_CSV_HEADER]);
  });
});
