import { englishOf } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { createRandom } from "./random.ts";
import {
  createRangeChooser,
  formatRangeChoice,
  parseRangeChoice,
  rangeHeaderValue,
  type ByteRange,
  type RangeChoice,
} from "./range-choice.ts";

const KiB = 1024;
const MiB = 1024 * KiB;
const SEEDS = [1, 42, 31_337];

function choiceOf(text: string): RangeChoice {
  const parsed = parseRangeChoice(text);
  if (!parsed.ok) throw new Error(englishOf(parsed.reason));
  return parsed.value;
}

function ranges(text: string, objectSizeBytes: number, count: number, seed = 1): ByteRange[] {
  const chooser = createRangeChooser(choiceOf(text), createRandom(seed));
  return Array.from({ length: count }, () => chooser.nextRange(objectSizeBytes));
}

describe("parseRangeChoice", () => {
  it.each<[string, RangeChoice]>([
    ["fixed:0:1MiB", { kind: "fixed", offsetBytes: 0, lengthBytes: MiB }],
    ["fixed:0B:1", { kind: "fixed", offsetBytes: 0, lengthBytes: 1 }],
    ["Fixed: 4KiB : 64KiB", { kind: "fixed", offsetBytes: 4 * KiB, lengthBytes: 64 * KiB }],
    ["random:1MiB", { kind: "random", lengthBytes: MiB, alignBytes: 1 }],
    ["random:64KiB:4KiB", { kind: "random", lengthBytes: 64 * KiB, alignBytes: 4 * KiB }],
  ])("reads %j", (text, expected) => {
    expect(parseRangeChoice(text)).toEqual({ ok: true, value: expected });
  });

  const EXPECTED =
    "expected fixed:OFFSET:LENGTH (e.g. fixed:0:1MiB) or random:LENGTH[:ALIGN] (e.g. random:1MiB or random:64KiB:4KiB)";
  it.each([
    ["", `"" — unknown range choice; ${EXPECTED}`],
    ["1MiB", `"1MiB" — unknown range choice; ${EXPECTED}`],
    ["tail:1MiB", `"tail:1MiB" — unknown range choice; ${EXPECTED}`],
    ["fixed:1MiB", `"fixed:1MiB" — ${EXPECTED}`],
    ["random", `"random" — ${EXPECTED}`],
    ["random:1:2:3", `"random:1:2:3" — ${EXPECTED}`],
    ["fixed:-1:1MiB", '"fixed:-1:1MiB" — offset "-1" must be greater than 0 bytes'],
    ["fixed:0:0", '"fixed:0:0" — length "0" must be greater than 0 bytes'],
    [
      "random:1Mx",
      '"random:1Mx" — length "1Mx" has an unknown unit "Mx"; expected one of B, KiB, MiB, GiB, TiB, KB, MB, GB, TB',
    ],
    ["random:1MiB:0", '"random:1MiB:0" — alignment "0" must be greater than 0 bytes'],
  ])("rejects %j", (text, reason) => {
    const parsed = parseRangeChoice(text);
    expect(parsed.ok ? parsed : englishOf(parsed.reason)).toBe(reason);
  });

  it.each(["fixed:0:1MiB", "fixed:4KiB:100KB", "random:1MiB", "random:64KiB:4KiB", "random:1023"])(
    "formats %j back to itself",
    (text) => {
      expect(formatRangeChoice(choiceOf(text))).toBe(text);
    },
  );
});

describe("fixed ranges", () => {
  it.each([
    ["fixed:0:1MiB", 4 * MiB, { start: 0, endInclusive: MiB - 1 }],
    ["fixed:1MiB:64KiB", 4 * MiB, { start: MiB, endInclusive: MiB + 64 * KiB - 1 }],
    // A length beyond the object is cut to the object.
    ["fixed:0:1MiB", 1000, { start: 0, endInclusive: 999 }],
    // An offset too near the end moves back so the whole length still fits.
    ["fixed:1MiB:64KiB", MiB + 1000, { start: MiB + 1000 - 64 * KiB, endInclusive: MiB + 999 }],
    ["fixed:1MiB:64KiB", 100, { start: 0, endInclusive: 99 }],
    ["fixed:0:1", 1, { start: 0, endInclusive: 0 }],
  ])("%s of a %d-byte object is %j", (text, objectSizeBytes, expected) => {
    expect(ranges(text, objectSizeBytes, 3)).toEqual([expected, expected, expected]);
  });
});

describe("random ranges", () => {
  it.each(SEEDS)(
    "lie inside the object, are the given length and cover every offset (seed %d)",
    (seed) => {
      const objectSizeBytes = 4 * MiB;
      const all = ranges("random:1MiB", objectSizeBytes, 20_000, seed);
      const inside = all.every(
        ({ start, endInclusive }) =>
          start >= 0 && endInclusive < objectSizeBytes && endInclusive - start + 1 === MiB,
      );
      expect(inside).toBe(true);
      // Starts are uniform over 0 … 3 MiB: mean in the middle, each quarter of that span a quarter.
      const lastStart = objectSizeBytes - MiB;
      const meanStart = all.reduce((sum, range) => sum + range.start, 0) / all.length;
      expect(Math.abs(meanStart / (lastStart / 2) - 1)).toBeLessThan(0.02);
      for (let quarter = 0; quarter < 4; quarter += 1) {
        const inQuarter = all.filter(
          (range) => Math.floor((range.start / (lastStart + 1)) * 4) === quarter,
        ).length;
        expect(Math.abs(inQuarter / all.length - 0.25)).toBeLessThan(0.015);
      }
    },
  );

  it("start on the alignment and reach the last aligned offset", () => {
    const all = ranges("random:64KiB:4KiB", 256 * KiB, 5000, 3);
    const starts = new Set(all.map((range) => range.start));
    expect([...starts].every((start) => start % (4 * KiB) === 0)).toBe(true);
    // (256 − 64) / 4 + 1 = 49 aligned offsets, from 0 to 192 KiB.
    expect(starts.size).toBe(49);
    expect(Math.max(...starts)).toBe(192 * KiB);
  });

  it("read the whole object when the length is the object or longer", () => {
    expect(ranges("random:1MiB", 5000, 3)).toEqual(
      new Array(3).fill({ start: 0, endInclusive: 4999 }),
    );
    expect(ranges("random:5000", 5000, 2)).toEqual(
      new Array(2).fill({ start: 0, endInclusive: 4999 }),
    );
  });

  it("reach both ends of a small object", () => {
    const starts = new Set(ranges("random:2", 4, 200, 9).map((range) => range.start));
    expect(starts).toEqual(new Set([0, 1, 2]));
  });

  it("place ranges anywhere in a 5 GiB object", () => {
    const objectSizeBytes = 5 * 1024 * MiB;
    const all = ranges("random:1MiB", objectSizeBytes, 1000, 5);
    expect(all.every((range) => range.endInclusive < objectSizeBytes)).toBe(true);
    expect(all.some((range) => range.start > 4 * 1024 * MiB)).toBe(true);
  });

  it("replay from the same seed", () => {
    expect(ranges("random:1KiB", MiB, 50, 8)).toEqual(ranges("random:1KiB", MiB, 50, 8));
  });
});

describe("rangeHeaderValue", () => {
  it.each([
    [{ start: 0, endInclusive: MiB - 1 }, "bytes=0-1048575"],
    [{ start: 5, endInclusive: 5 }, "bytes=5-5"],
  ])("writes %j as %s", (range, header) => {
    expect(rangeHeaderValue(range)).toBe(header);
  });
});

describe("createRangeChooser", () => {
  it.each([0, -1, 1.5, Number.NaN])("refuses an object of %d bytes", (objectSizeBytes) => {
    const chooser = createRangeChooser(choiceOf("random:1KiB"), createRandom(1));
    expect(() => chooser.nextRange(objectSizeBytes)).toThrow(/at least 1 byte/);
  });

  it.each<RangeChoice>([
    { kind: "fixed", offsetBytes: -1, lengthBytes: 1 },
    { kind: "fixed", offsetBytes: 0, lengthBytes: 0 },
    { kind: "random", lengthBytes: 1, alignBytes: 0 },
    { kind: "random", lengthBytes: 0.5, alignBytes: 1 },
  ])("refuses %j", (choice) => {
    expect(() => createRangeChooser(choice, createRandom(1))).toThrow(/whole byte counts/);
  });
});
