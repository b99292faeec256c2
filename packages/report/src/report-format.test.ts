import { describe, expect, it } from "vitest";
import {
  formatDateTime,
  formatFixed,
  formatMs,
  formatSignificant,
  formatSize,
  formatTick,
} from "./report-format.ts";

describe("report number formats", () => {
  it.each([
    [1234.5, 1, "1,234.5"],
    [-0.25, 2, "−0.25"],
    [-0.0001, 2, "0.00"],
    [1_000_000, 0, "1,000,000"],
  ])("formatFixed(%d, %d) → %s", (value, decimals, expected) => {
    expect(formatFixed(value, decimals)).toBe(expected);
  });

  it.each([
    [0.123456, "0.123"],
    [14.7271, "14.727"],
    [107.333, "107.33"],
    [1013.84, "1,013.8"],
  ])("formatMs(%d) → %s", (value, expected) => {
    expect(formatMs(value)).toBe(expected);
  });

  it.each([
    [0.0123456, "0.0123"],
    [4.5678, "4.57"],
    [12_345, "12,300"],
    [Number.POSITIVE_INFINITY, "∞"],
  ])("formatSignificant(%d) → %s", (value, expected) => {
    expect(formatSignificant(value)).toBe(expected);
  });

  it.each([
    [0, "0"],
    [0.2, "0.2"],
    [0.05, "0.05"],
    [2.5, "2.5"],
    [10, "10"],
    [500, "500"],
    [10_000, "10,000"],
  ])("formatTick(%d) → %s", (value, expected) => {
    expect(formatTick(value)).toBe(expected);
  });

  it("spells sizes and times the same in every language", () => {
    expect(formatSize(32768)).toBe("32 KiB");
    expect(formatSize(1048576)).toBe("1 MiB");
    expect(formatDateTime("2025-03-01T10:15:00.000Z")).toBe("2025-03-01 10:15:00 UTC");
    expect(formatDateTime("not a date")).toBe("not a date");
  });
});
