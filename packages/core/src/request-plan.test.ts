import { WorkloadSchema, type Operation } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { requestClass } from "./latency-window.ts";
import {
  createMixPlanner,
  createPhasePlanner,
  emptyPlannedRequest,
  objectSizesOf,
  type MixPhase,
  type ObjectSizeOf,
  type PlannedRequest,
  type RequestPlanner,
} from "./request-plan.ts";
import { MAX_S3_OBJECT_SIZE_BYTES } from "./size-distribution.ts";

const KiB = 1024;
const MiB = 1024 * KiB;
const FIRST_KEY = 1_000;
const NEW_KEY_FIRST = 50_000;

/** `count` requests planned one after another (request i meant to start at i µs). */
function plans(planner: RequestPlanner, count: number, startUs = 0): PlannedRequest[] {
  const into = emptyPlannedRequest();
  return Array.from({ length: count }, (_, index) => {
    planner.plan(index, startUs + index, into);
    return { ...into };
  });
}

function mixPhase(workload: Record<string, unknown>, overrides: Partial<MixPhase> = {}): MixPhase {
  return {
    workload: WorkloadSchema.parse(workload),
    firstKey: FIRST_KEY,
    newKeyFirst: NEW_KEY_FIRST,
    newKeys: new Int32Array(1),
    warmupEndUs: 0,
    measured: true,
    workerIndex: 0,
    ...overrides,
  };
}

const fixedSize =
  (sizeBytes: number): ObjectSizeOf =>
  () =>
    sizeBytes;

describe("objectSizesOf", () => {
  it.each<[string, number, { distribution: string; seed: number } | null, (size: number) => void]>([
    ["the point's one size", 4 * KiB, null, (size) => expect(size).toBe(4 * KiB)],
    ["a huge one size", MAX_S3_OBJECT_SIZE_BYTES, null, (size) => expect(size).toBe(5 * 1024 ** 4)],
    [
      "one of a list",
      4 * KiB,
      { distribution: "4KiB,64KiB", seed: 3 },
      (size) => expect([4 * KiB, 64 * KiB]).toContain(size),
    ],
    [
      "uniform between bounds",
      4 * KiB,
      { distribution: "uniform:1KiB:1MiB", seed: 3 },
      (size) => expect(size >= KiB && size <= MiB).toBe(true),
    ],
    [
      "lognormal up to S3's largest object",
      4 * KiB,
      { distribution: "lognormal:1GiB:5TiB", seed: 3 },
      (size) => expect(size >= 1024 ** 3 && size <= MAX_S3_OBJECT_SIZE_BYTES).toBe(true),
    ],
  ])("%s", (_, objectSizeBytes, sizes, check) => {
    const sizeOf = objectSizesOf(objectSizeBytes, sizes);
    for (let key = 0; key < 200; key += 1) check(sizeOf(key));
  });

  it("gives a key the same size every time, in every worker, and other keys other sizes", () => {
    const sizes = { distribution: "uniform:1KiB:1MiB", seed: 9 };
    const one = objectSizesOf(0, sizes);
    const other = objectSizesOf(0, sizes);
    const keys = Array.from({ length: 50 }, (_, key) => key);
    expect(keys.map(one)).toEqual(keys.map(other));
    expect(new Set(keys.map(one)).size).toBeGreaterThan(40);
    const reseeded = objectSizesOf(0, { ...sizes, seed: 10 });
    expect(keys.map(reseeded)).not.toEqual(keys.map(one));
  });

  it("names the field when the distribution cannot be read", () => {
    expect(() => objectSizesOf(0, { distribution: "tiny", seed: 1 })).toThrow(/^workload\.sizes: /);
  });
});

describe("createPhasePlanner", () => {
  it.each<[string, Operation, number, number, number[]]>([
    ["writes each key once", "PUT", 0, 4, [0, 1, 2, 3]],
    [
      "reads the keys round and round",
      "GET",
      FIRST_KEY,
      3,
      [1000, 1001, 1002, 1000, 1001, 1002, 1000],
    ],
    ["one key: every request takes it", "GET", 7, 1, [7, 7, 7]],
    [
      "cleans up from its first key",
      "DELETE",
      2_000_000_000,
      2,
      [2_000_000_000, 2_000_000_001, 2_000_000_000],
    ],
  ])("%s", (_, op, firstKey, keyCount, keys) => {
    const planned = plans(
      createPhasePlanner({ op, firstKey, keyCount, measured: true }, fixedSize(KiB)),
      keys.length,
    );
    expect(planned.map((plan) => plan.keyNumber)).toEqual(keys);
    expect(planned.every((plan) => plan.op === op && plan.range === null)).toBe(true);
  });

  it("plans request i by its index, whichever client takes it when", () => {
    const planner = createPhasePlanner(
      { op: "GET", firstKey: 0, keyCount: 10, measured: true },
      fixedSize(KiB),
    );
    const into = emptyPlannedRequest();
    planner.plan(17, 5, into);
    expect(into.keyNumber).toBe(7);
    planner.plan(3, 9, into);
    expect(into.keyNumber).toBe(3);
  });

  it.each<[string, number, ObjectSizeOf, number[]]>([
    ["the one size", 3, fixedSize(4 * KiB), [4 * KiB, 4 * KiB, 4 * KiB]],
    ["each key's own size", 3, (key) => (key + 1) * KiB, [1 * KiB, 2 * KiB, 3 * KiB]],
    ["a 5 TiB object", 1, fixedSize(MAX_S3_OBJECT_SIZE_BYTES), [MAX_S3_OBJECT_SIZE_BYTES]],
  ])("sizes a request by its key: %s", (_, keyCount, sizeOf, sizes) => {
    const planned = plans(
      createPhasePlanner({ op: "GET", firstKey: 0, keyCount, measured: true }, sizeOf),
      sizes.length,
    );
    expect(planned.map((plan) => plan.sizeBytes)).toEqual(sizes);
    expect(planned.map((plan) => plan.requestClass)).toEqual(
      sizes.map((size) => requestClass("GET", size)),
    );
  });

  it.each([true, false])("passes the phase's measured (%s) to every request", (measured) => {
    const planned = plans(
      createPhasePlanner({ op: "PUT", firstKey: 0, keyCount: 2, measured }, fixedSize(1)),
      3,
    );
    expect(planned.every((plan) => plan.measured === measured)).toBe(true);
  });

  it.each([0, -1, 1.5, Number.NaN])("refuses %s keys", (keyCount) => {
    expect(() =>
      createPhasePlanner({ op: "GET", firstKey: 0, keyCount, measured: true }, fixedSize(1)),
    ).toThrow(RangeError);
  });
});

describe("createMixPlanner", () => {
  it.each<[string, Record<Operation, number>]>([
    ["get:70,put:20,delete:5,list:5", { GET: 700, PUT: 200, DELETE: 50, LIST: 50 } as never],
    ["get,head", { GET: 500, HEAD: 500 } as never],
    [
      "copy:1,multipart:1,list-buckets:2",
      { COPY: 250, MULTIPART: 250, LIST_BUCKETS: 500 } as never,
    ],
  ])("draws the mix %s in its shares", (ops, counts) => {
    const planned = plans(createMixPlanner(mixPhase({ ops }), fixedSize(KiB)), 1000);
    const drawn: Record<string, number> = {};
    for (const { op } of planned) drawn[op] = (drawn[op] ?? 0) + 1;
    expect(drawn).toEqual(counts);
  });

  it("takes each operation's keys where it should", () => {
    const ops =
      "get,head,put,copy,multipart,delete,delete-objects,list,create-bucket,delete-bucket,list-buckets";
    const phase = mixPhase({ ops, prepareObjects: 20 });
    const planned = plans(createMixPlanner(phase, fixedSize(KiB)), 220);
    const prepared = (key: number) => key >= FIRST_KEY && key < FIRST_KEY + 20;
    const newKeys = planned.filter((plan) => ["PUT", "COPY", "MULTIPART"].includes(plan.op));
    // One worker alone hands out the new keys in order.
    expect(newKeys.map((plan) => plan.keyNumber)).toEqual(
      newKeys.map((_, index) => NEW_KEY_FIRST + index),
    );
    expect(phase.newKeys[0]).toBe(newKeys.length);
    let buckets = 0;
    for (const plan of planned) {
      switch (plan.op) {
        case "GET":
        case "HEAD":
          expect(prepared(plan.keyNumber)).toBe(true);
          break;
        case "PUT":
        case "MULTIPART":
          break;
        case "COPY":
          expect(prepared(plan.sourceKeyNumber)).toBe(true);
          break;
        case "DELETE":
        case "DELETE_OBJECTS":
          expect(plan.keyNumber).toBeGreaterThanOrEqual(NEW_KEY_FIRST);
          expect(plan.keyNumber).toBeLessThan(NEW_KEY_FIRST + newKeys.length);
          break;
        case "CREATE_BUCKET":
        case "DELETE_BUCKET":
          buckets += 1;
          expect(plan.bucketNumber).toBe(buckets);
          break;
        default:
          expect(plan.keyNumber).toBe(-1);
      }
      if (plan.op !== "COPY") expect(plan.sourceKeyNumber).toBe(-1);
      if (plan.op !== "CREATE_BUCKET" && plan.op !== "DELETE_BUCKET") {
        expect(plan.bucketNumber).toBe(0);
      }
    }
    expect(buckets).toBe(40);
  });

  it("deletes key newKeyFirst before any new key is handed out", () => {
    const planned = plans(createMixPlanner(mixPhase({ ops: "delete" }), fixedSize(KiB)), 5);
    expect(planned.map((plan) => plan.keyNumber)).toEqual(Array(5).fill(NEW_KEY_FIRST));
  });

  it.each<[string, number, number[]]>([
    ["sequential", 3, [FIRST_KEY, FIRST_KEY + 1, FIRST_KEY + 2, FIRST_KEY, FIRST_KEY + 1]],
    ["uniform", 1, Array(5).fill(FIRST_KEY)],
    ["zipf:1.2", 1, Array(5).fill(FIRST_KEY)],
  ])("reads the prepared objects by %s over %i", (keys, prepareObjects, expected) => {
    const planned = plans(
      createMixPlanner(mixPhase({ ops: "get", keys, prepareObjects }), fixedSize(KiB)),
      expected.length,
    );
    expect(planned.map((plan) => plan.keyNumber)).toEqual(expected);
  });

  it("sizes a request by the object it reads or writes: COPY by its source, DELETE by none", () => {
    const sizeOf: ObjectSizeOf = (key) => key;
    const planned = plans(
      createMixPlanner(mixPhase({ ops: "get,put,copy,delete,list" }), sizeOf),
      50,
    );
    for (const plan of planned) {
      const sized = plan.op === "COPY" ? plan.sourceKeyNumber : plan.keyNumber;
      const expected = ["DELETE", "LIST"].includes(plan.op) ? 0 : sized;
      expect(plan.sizeBytes).toBe(expected);
      expect(plan.requestClass).toBe(requestClass(plan.op, expected));
    }
  });

  it.each<[string, number, (range: { start: number; endInclusive: number }) => boolean]>([
    ["fixed:0:1KiB", 4 * KiB, (range) => range.start === 0 && range.endInclusive === KiB - 1],
    [
      "fixed:4KiB:1MiB",
      64 * KiB,
      (range) => range.start === 0 && range.endInclusive === 64 * KiB - 1,
    ],
    [
      "random:1KiB:4KiB",
      MiB,
      (range) => range.start % (4 * KiB) === 0 && range.endInclusive - range.start === KiB - 1,
    ],
    [
      "random:1GiB",
      MAX_S3_OBJECT_SIZE_BYTES,
      (range) =>
        range.endInclusive < MAX_S3_OBJECT_SIZE_BYTES &&
        range.endInclusive - range.start === 1024 ** 3 - 1,
    ],
    ["fixed:0:1", 1, (range) => range.start === 0 && range.endInclusive === 0],
  ])("ranges a GET by %s of a %i-byte object", (range, sizeBytes, fits) => {
    const planned = plans(
      createMixPlanner(mixPhase({ ops: "get:3,head:1", range }), fixedSize(sizeBytes)),
      40,
    );
    for (const plan of planned) {
      if (plan.op === "GET") expect(plan.range !== null && fits(plan.range)).toBe(true);
      else expect(plan.range).toBeNull();
    }
  });

  it("reads whole objects without a range", () => {
    const planned = plans(createMixPlanner(mixPhase({ ops: "get" }), fixedSize(KiB)), 5);
    expect(planned.every((plan) => plan.range === null)).toBe(true);
  });

  it.each<[string, boolean, number, boolean[]]>([
    ["measures from the warm-up's end", true, 3, [false, false, false, true, true]],
    ["measures all without a warm-up", true, 0, [true, true, true, true, true]],
    ["measures none of a phase that is not", false, 0, [false, false, false, false, false]],
  ])("%s", (_, measured, warmupEndUs, expected) => {
    const planner = createMixPlanner(
      mixPhase({ ops: "get" }, { measured, warmupEndUs }),
      fixedSize(KiB),
    );
    expect(plans(planner, 5).map((plan) => plan.measured)).toEqual(expected);
  });

  it("plans the same requests from the same seed and worker, others from another", () => {
    const workload = { ops: "get:5,put:3,delete:1,head:1", keys: "zipf:1.1", range: "random:1KiB" };
    const planOf = (seed: number, workerIndex: number) =>
      plans(
        createMixPlanner(mixPhase({ ...workload, seed }, { workerIndex }), fixedSize(64 * KiB)),
        200,
      );
    expect(planOf(1, 0)).toEqual(planOf(1, 0));
    expect(planOf(1, 1)).not.toEqual(planOf(1, 0));
    expect(planOf(2, 0)).not.toEqual(planOf(1, 0));
  });

  it("hands every worker of the phase new keys apart, through their shared counter", () => {
    const newKeys = new Int32Array(1);
    const workers = [0, 1, 2].map((workerIndex) =>
      createMixPlanner(mixPhase({ ops: "put" }, { workerIndex, newKeys }), fixedSize(KiB)),
    );
    const into = emptyPlannedRequest();
    const taken: number[] = [];
    for (let index = 0; index < 30; index += 1) {
      (workers[index % 3] as RequestPlanner).plan(index, index, into);
      taken.push(into.keyNumber);
    }
    expect(new Set(taken).size).toBe(30);
    expect(Math.min(...taken)).toBe(NEW_KEY_FIRST);
    expect(Math.max(...taken)).toBe(NEW_KEY_FIRST + 29);
  });

  it("overwrites every field of the plan it reuses", () => {
    const planner = createMixPlanner(
      mixPhase({ ops: "copy,get,list", range: "fixed:0:1" }),
      fixedSize(KiB),
    );
    const planned = plans(planner, 3);
    const list = planned.find((plan) => plan.op === "LIST");
    expect(list).toEqual({
      op: "LIST",
      keyNumber: -1,
      sourceKeyNumber: -1,
      sizeBytes: 0,
      range: null,
      bucketNumber: 0,
      measured: true,
      requestClass: requestClass("LIST", 0),
    });
  });

  it.each<[Record<string, unknown>, RegExp]>([
    [{ ops: "get:50,fly:50" }, /^workload\.ops: /],
    [{ ops: "get", keys: "hottest" }, /^workload\.keys: /],
    [{ ops: "get", range: "tail:1" }, /^workload\.range: /],
  ])("names the field it cannot read: %j", (workload, message) => {
    expect(() => createMixPlanner(mixPhase(workload), fixedSize(1))).toThrow(message);
  });
});
