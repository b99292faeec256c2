import { describe, expect, it } from "vitest";
import { recordedWrites, runKeyNumber, WrittenKeyTracker } from "./written-keys.ts";

const prefix = "taillab/r1/";
const record = (op: "PUT" | "GET" | "DELETE" | "COPY", key: number | string, status: number) => ({
  op,
  key: typeof key === "number" ? `${prefix}${key}` : key,
  status,
});

describe("runKeyNumber", () => {
  it.each([
    ["taillab/r1/0", 0],
    ["taillab/r1/42", 42],
    ["taillab/r1/042", null],
    ["taillab/r1/x", null],
    ["taillab/r1/", null],
    ["taillab/r1x/1", null],
    ["taillab/r1", null],
    ["precious/data1", null],
  ])("%s → %s", (key, number) => {
    expect(runKeyNumber(prefix, key)).toBe(number);
  });

  it("a prefix without its trailing slash names no run's keys", () => {
    expect(runKeyNumber("taillab/r1", "taillab/r1/0")).toBeNull();
  });
});

describe("WrittenKeyTracker", () => {
  it("counts as left the keys written or not heard of, not those refused or deleted", () => {
    const tracker = new WrittenKeyTracker(prefix, { followDeletes: true });
    for (const each of [
      record("PUT", 0, 200),
      record("PUT", 1, 503),
      record("PUT", 2, 0),
      record("PUT", 3, 200),
      record("DELETE", 3, 204),
      record("PUT", 4, 503),
      record("PUT", 4, 200),
      record("DELETE", 0, 404),
      record("PUT", "otherteam/backup.tar", 200),
    ]) {
      tracker.add(each);
    }
    const left = tracker.leftIn([{ firstKey: 0, count: 6 }]);
    expect(left.count).toBe(4);
    expect([...left.keys()]).toEqual([0, 2, 4, 5].map((n) => `${prefix}${n}`));
  });

  it("in a mix, where a key's PUT and DELETE race, a DELETE takes no key off", () => {
    const tracker = new WrittenKeyTracker(prefix, { followDeletes: false });
    tracker.add(record("PUT", 0, 200));
    tracker.add(record("DELETE", 0, 204));
    expect(tracker.leftIn([{ firstKey: 0, count: 1 }]).count).toBe(1);
  });
});

describe("recordedWrites", () => {
  it("names each run key with a write that may have landed, deleted since or not", async () => {
    async function* records() {
      yield* [
        record("PUT", 0, 200),
        record("PUT", 1, 500),
        record("COPY", 2, 200),
        record("DELETE", 2, 204),
        record("PUT", 3, 0),
        record("GET", 4, 200),
        record("PUT", "taillab/r1x/5", 200),
      ];
    }
    const written = await recordedWrites(records(), prefix);
    expect(written.count).toBe(3);
    expect([...written.keys()]).toEqual([`${prefix}0`, `${prefix}2`, `${prefix}3`]);
  });
});
