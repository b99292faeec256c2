import type { RequestRecord } from "@taillab/api";
import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordAt, type RecordColumns } from "./record-columns.ts";
import { numberAfterPrefix, RecordFrameEncoder } from "./record-frame-encoder.ts";
import {
  encodeLogHeader,
  FRAME_HEADER_BYTES,
  LOG_FORMAT_VERSION,
  LOG_HEADER_BYTES,
} from "./record-log-format.ts";
import {
  countLogRecords,
  decodeRecordLog,
  loadRecordLog,
  readRecordBatches,
} from "./record-log-reader.ts";
import { sampleRecords } from "./test-support/sample-run.ts";

const PREFIX = "taillab/run-1/";

function rowsOf(columns: RecordColumns): { pointIndex: number; record: RequestRecord }[] {
  return Array.from({ length: columns.count }, (_, row) => ({
    pointIndex: columns.pointIndex[row] ?? -1,
    record: recordAt(columns, row),
  }));
}

/** A log of `batches` appends, and the byte offset where each frame group starts. */
function buildLog(batches: { pointIndex: number; records: RequestRecord[] }[]) {
  const encoder = new RecordFrameEncoder(PREFIX);
  const parts: Buffer[] = [encodeLogHeader()];
  const groupStarts: number[] = [];
  let length = LOG_HEADER_BYTES;
  for (const { pointIndex, records } of batches) {
    encoder.add(pointIndex, records);
    const frames = encoder.takeFrames();
    if (!frames) continue;
    groupStarts.push(length);
    parts.push(frames.bytes);
    length += frames.bytes.length;
  }
  return { bytes: Buffer.concat(parts), groupStarts };
}

const batches = [
  { pointIndex: 0, records: sampleRecords({ keyPrefix: PREFIX, op: "PUT", count: 700, seed: 1 }) },
  { pointIndex: 0, records: sampleRecords({ keyPrefix: PREFIX, op: "GET", count: 500, seed: 2 }) },
  {
    pointIndex: 3,
    records: sampleRecords({ keyPrefix: PREFIX, op: "DELETE", count: 40, seed: 3 }),
  },
];
const expected = batches.flatMap(({ pointIndex, records }) =>
  records.map((record) => ({ pointIndex, record })),
);

describe("records log", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "taillab-log-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("gives back every field of every record, odd keys and error codes included", () => {
    const { bytes } = buildLog(batches);
    const columns = decodeRecordLog(bytes, PREFIX, "test");
    expect(columns.count).toBe(expected.length);
    expect(rowsOf(columns)).toEqual(expected);
    expect(columns.textKeys.length).toBeGreaterThan(0);
    expect(columns.errorCodes[0]).toBeNull();
  });

  it("keeps every whole frame when the last one is cut at any byte", () => {
    const { bytes, groupStarts } = buildLog(batches);
    const lastGroup = groupStarts.at(-1) ?? 0;
    const before = expected.length - (batches.at(-1)?.records.length ?? 0);
    for (let cut = lastGroup; cut < bytes.length; cut += 1) {
      const columns = decodeRecordLog(bytes.subarray(0, cut), PREFIX, "test");
      expect(columns.count).toBe(before);
    }
    expect(rowsOf(decodeRecordLog(bytes.subarray(0, lastGroup + 1), PREFIX, "t"))).toEqual(
      expected.slice(0, before),
    );
  });

  it("stops at a frame that fails its checksum, keeping the frames before it", () => {
    const { bytes, groupStarts } = buildLog(batches);
    const damaged = Buffer.from(bytes);
    const second = groupStarts[1] ?? 0;
    damaged[second + FRAME_HEADER_BYTES + 20] =
      (damaged[second + FRAME_HEADER_BYTES + 20] ?? 0) ^ 1;
    expect(decodeRecordLog(damaged, PREFIX, "test").count).toBe(batches[0]?.records.length);
  });

  it("reads a log cut inside its header as empty, and refuses files that are not logs", () => {
    const header = encodeLogHeader();
    for (let cut = 0; cut < LOG_HEADER_BYTES; cut += 1) {
      expect(decodeRecordLog(header.subarray(0, cut), PREFIX, "test").count).toBe(0);
    }
    expect(() => decodeRecordLog(Buffer.from("time,op,key\n1,GET,a\n"), PREFIX, "x.log")).toThrow(
      "x.log: it is not a TailLab records log",
    );
    const future = Buffer.from(header);
    future.writeUInt32LE(LOG_FORMAT_VERSION + 1, 8);
    expect(() => decodeRecordLog(future, PREFIX, "x.log")).toThrow(
      `version ${LOG_FORMAT_VERSION + 1}, newer than`,
    );
  });

  it("streams, counts and loads the same records from a file, torn tail or not", async () => {
    const { bytes, groupStarts } = buildLog(batches);
    const path = join(dir, "records.log");
    await writeFile(path, bytes);
    const streamed: { pointIndex: number; record: RequestRecord }[] = [];
    for await (const batch of readRecordBatches(path, PREFIX, "test")) {
      streamed.push(...rowsOf(batch));
    }
    expect(streamed).toEqual(expected);
    const whole = { records: expected.length, skippedBytes: 0 };
    expect(await countLogRecords(path, "test", { verify: false })).toEqual(whole);
    expect(await countLogRecords(path, "test", { verify: true })).toEqual(whole);

    const lastGroup = groupStarts.at(-1) ?? 0;
    const before = expected.length - (batches.at(-1)?.records.length ?? 0);
    for (const cut of [lastGroup + 3, lastGroup + FRAME_HEADER_BYTES + 1, bytes.length - 1]) {
      await writeFile(path, bytes);
      await truncate(path, cut);
      const torn = { records: before, skippedBytes: cut - lastGroup };
      expect((await loadRecordLog(path, PREFIX, "test")).count).toBe(before);
      expect(await countLogRecords(path, "test", { verify: true })).toEqual(torn);
      expect(await countLogRecords(path, "test", { verify: false })).toEqual(torn);
      let streamedCount = 0;
      for await (const batch of readRecordBatches(path, PREFIX, "test"))
        streamedCount += batch.count;
      expect(streamedCount).toBe(before);
    }
  });

  it("garbage in the middle: the records before it are read, and every byte from it on is counted as skipped", async () => {
    const { bytes, groupStarts } = buildLog(batches);
    const path = join(dir, "records.log");
    const second = groupStarts[1] ?? 0;
    const damaged = Buffer.from(bytes);
    damaged.fill(0x5a, second + 20, second + 60);
    await writeFile(path, damaged);
    const extent = { records: 0, skippedBytes: 0 };
    let streamedCount = 0;
    for await (const batch of readRecordBatches(path, PREFIX, "test", extent)) {
      streamedCount += batch.count;
    }
    const first = batches[0]?.records.length ?? 0;
    expect(streamedCount).toBe(first);
    expect(extent).toEqual({ records: first, skippedBytes: bytes.length - second });
    expect(await countLogRecords(path, "test", { verify: true })).toEqual(extent);
  });

  it("refuses records that do not fit the format, before adding any of them", () => {
    const encoder = new RecordFrameEncoder(PREFIX);
    const [record] = batches[0]?.records ?? [];
    if (!record) throw new Error("no sample record");
    expect(() => encoder.add(70_000, [record])).toThrow(/pointIndex 70000/);
    expect(() => encoder.add(0, [record, { ...record, attempt: 300 }])).toThrow(/attempt 300/);
    expect(encoder.pendingCount).toBe(0);
  });

  it.each([
    ["taillab/run-1/0", 0],
    ["taillab/run-1/42", 42],
    ["taillab/run-1/2147483647", 2147483647],
    ["taillab/run-1/2147483648", null],
    ["taillab/run-1/042", null],
    ["taillab/run-1/", null],
    ["taillab/run-1/4x", null],
    ["taillab/run-2/4", null],
  ])("stores key %s as number %s", (key, number) => {
    expect(numberAfterPrefix(key, PREFIX)).toBe(number);
  });
});
