import { describe, expect, it } from "vitest";
import {
  boundedErrorCode,
  ERROR_CODE_MAX_LENGTH,
  ERROR_CODES_KEPT,
  ErrorCodeCounts,
  OTHER_ERROR_CODE,
} from "./error-codes.ts";

describe("boundedErrorCode", () => {
  it.each([
    ["SlowDown", "SlowDown"],
    ["x".repeat(ERROR_CODE_MAX_LENGTH), "x".repeat(ERROR_CODE_MAX_LENGTH)],
    ["y".repeat(60_000), "y".repeat(ERROR_CODE_MAX_LENGTH)],
    // Never half a surrogate pair: 128 whole emoji.
    ["😀".repeat(200), "😀".repeat(ERROR_CODE_MAX_LENGTH)],
  ])("%#", (code, kept) => {
    expect(boundedErrorCode(code)).toBe(kept);
  });
});

describe("ErrorCodeCounts", () => {
  it("counts codes named like Object's own properties like any other", () => {
    const counts = new ErrorCodeCounts();
    for (const code of ["__proto__", "constructor", "toString", "valueOf", "hasOwnProperty"]) {
      counts.add(code);
      counts.add(code, 2);
    }
    const object = counts.toObject();
    expect(Object.keys(object)).toEqual([
      "__proto__",
      "constructor",
      "toString",
      "valueOf",
      "hasOwnProperty",
    ]);
    expect(Object.values(object)).toEqual([3, 3, 3, 3, 3]);
    const parsed = JSON.parse(JSON.stringify(object)) as Record<string, number>;
    expect(Object.entries(parsed)).toEqual(Object.entries(object));
    const again = new ErrorCodeCounts();
    again.addAll(parsed);
    again.addAll(parsed);
    expect(Object.entries(again.toObject())).toEqual(Object.keys(object).map((code) => [code, 6]));
  });

  it("keeps the first ERROR_CODES_KEPT codes one by one and counts the rest as one", () => {
    const counts = new ErrorCodeCounts();
    for (let index = 0; index < ERROR_CODES_KEPT + 30; index += 1) counts.add(`Code${index}`);
    counts.add("Code0", 5);
    const object = counts.toObject();
    expect(Object.keys(object)).toHaveLength(ERROR_CODES_KEPT + 1);
    expect(object[OTHER_ERROR_CODE]).toBe(30);
    expect(object.Code0).toBe(6);
  });
});
