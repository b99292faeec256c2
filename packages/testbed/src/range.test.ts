import { describe, expect, it } from "vitest";
import { parseRange } from "./range.ts";

describe("parseRange", () => {
  it.each([
    ["no header", undefined, 10, { kind: "whole" }],
    ["first-last", "bytes=0-4", 10, { kind: "partial", start: 0, end: 4 }],
    ["single byte", "bytes=3-3", 10, { kind: "partial", start: 3, end: 3 }],
    ["last clamped to the size", "bytes=5-100", 10, { kind: "partial", start: 5, end: 9 }],
    ["open-ended", "bytes=7-", 10, { kind: "partial", start: 7, end: 9 }],
    ["suffix", "bytes=-3", 10, { kind: "partial", start: 7, end: 9 }],
    ["suffix longer than the object", "bytes=-30", 10, { kind: "partial", start: 0, end: 9 }],
    ["huge last", "bytes=0-99999999999999999999", 10, { kind: "partial", start: 0, end: 9 }],
    ["surrounding whitespace", " bytes=1-2 ", 10, { kind: "partial", start: 1, end: 2 }],
    ["first past the end", "bytes=10-", 10, { kind: "unsatisfiable" }],
    ["first past the end, with last", "bytes=10-20", 10, { kind: "unsatisfiable" }],
    ["huge first", "bytes=99999999999999999999-", 10, { kind: "unsatisfiable" }],
    ["zero-length suffix", "bytes=-0", 10, { kind: "unsatisfiable" }],
    ["any range of an empty object", "bytes=0-", 0, { kind: "unsatisfiable" }],
    ["suffix of an empty object", "bytes=-5", 0, { kind: "unsatisfiable" }],
    ["last before first is ignored", "bytes=5-2", 10, { kind: "whole" }],
    ["several ranges are ignored", "bytes=0-1,4-5", 10, { kind: "whole" }],
    ["other units are ignored", "items=0-1", 10, { kind: "whole" }],
    ["no numbers is ignored", "bytes=-", 10, { kind: "whole" }],
    ["garbage is ignored", "bytes=a-b", 10, { kind: "whole" }],
    ["negative is ignored", "bytes=--1", 10, { kind: "whole" }],
  ])("%s: %j of %d bytes", (_name, header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
});
