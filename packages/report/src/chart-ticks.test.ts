import { describe, expect, it } from "vitest";
import {
  axisTicks,
  logAxisFloor,
  logTicks,
  niceStep,
  wantsLogAxis,
  type TickRoom,
} from "./chart-ticks.ts";

/** A vertical axis: every label one line of a 12 px font, 6 px apart. */
const vertical = (lengthPx: number): TickRoom => ({ lengthPx, labelPx: () => 14, gapPx: 6 });
/** A horizontal axis: labels as wide as their text in 12 px digits. */
const horizontal = (lengthPx: number): TickRoom => ({
  lengthPx,
  labelPx: (value) => String(value).length * 7.5,
  gapPx: 12,
});

/** The smallest free space between neighbouring labels, in pixels. */
function tightest(ticks: number[], min: number, max: number, room: TickRoom): number {
  const px = (value: number) => (Math.log10(value / min) / Math.log10(max / min)) * room.lengthPx;
  let smallest = Infinity;
  for (let index = 1; index < ticks.length; index += 1) {
    const [a, b] = [ticks[index - 1] as number, ticks[index] as number];
    smallest = Math.min(smallest, px(b) - px(a) - (room.labelPx(a) + room.labelPx(b)) / 2);
  }
  return smallest;
}

describe("logTicks", () => {
  it.each([
    // A ladder from 4 ms to 20 ms on a short axis: no 7, 8, 9, 10 pile.
    { name: "short ladder axis", min: 4, max: 20, room: vertical(120) },
    { name: "tall ladder axis", min: 4, max: 20, room: vertical(400) },
    { name: "mode bars, 5 ms to 1 s", min: 5, max: 1100, room: vertical(180) },
    {
      name: "projector mode, big labels",
      min: 5,
      max: 1100,
      room: { lengthPx: 180, labelPx: () => 28, gapPx: 14 },
    },
    { name: "CDF axis, 1.4 ms to 1 s", min: 1.4, max: 1050, room: horizontal(420) },
    { name: "CDF axis squeezed", min: 90, max: 1160, room: horizontal(160) },
    { name: "histogram counts", min: 0.5, max: 4000, room: vertical(200) },
    { name: "many decades", min: 0.001, max: 1e6, room: vertical(90) },
  ])("labels never overlap: $name", ({ min, max, room }) => {
    const ticks = logTicks(min, max, room);
    expect(ticks.length).toBeGreaterThanOrEqual(2);
    expect(tightest(ticks, min, max, room)).toBeGreaterThanOrEqual(room.gapPx - 1e-9);
    for (const tick of ticks) {
      expect(tick).toBeGreaterThanOrEqual(min);
      expect(tick).toBeLessThanOrEqual(max);
    }
    expect([...ticks].sort((a, b) => a - b)).toEqual(ticks);
  });

  it.each([
    { min: 1, max: 1000, room: vertical(60), ticks: [1, 10, 100, 1000] },
    { min: 1, max: 1000, room: vertical(300), ticks: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] },
    { min: 0.001, max: 1, room: vertical(80), ticks: [0.001, 0.01, 0.1, 1] },
    { min: 0.001, max: 1, room: vertical(40), ticks: [0.001, 0.1] },
    { min: 4, max: 20, room: vertical(150), ticks: [4, 5, 8, 10, 20] },
    { min: 4, max: 20, room: vertical(300), ticks: [4, 5, 6, 7, 8, 10, 20] },
  ])("round values first: $min to $max in $room.lengthPx px", ({ min, max, room, ticks }) => {
    expect(logTicks(min, max, room)).toEqual(ticks);
  });

  it("keeps 7 and 40 off an axis longer than a decade", () => {
    expect(logTicks(6.4, 120, vertical(600))).toEqual([10, 20, 30, 50, 100]);
    expect(logTicks(0.5, 40, vertical(400))).toEqual([0.5, 1, 2, 3, 5, 10, 20, 30]);
  });

  it("falls back to evenly spaced values within one narrow stretch of a decade", () => {
    expect(logTicks(101, 116, vertical(200))).toEqual([102, 104, 106, 108, 110, 112, 114, 116]);
  });

  it("has nothing to place on an empty or non-positive range", () => {
    expect(logTicks(0, 10, vertical(200))).toEqual([]);
    expect(logTicks(5, 5, vertical(200))).toEqual([]);
    expect(logTicks(1, 10, vertical(0))).toEqual([]);
  });
});

describe("logAxisFloor", () => {
  it.each([
    { value: 6.367, floor: 5 },
    { value: 5.2, floor: 2 },
    { value: 12, floor: 5 },
    { value: 1.1, floor: 0.5 },
    { value: 250, floor: 200 },
    { value: 0.03, floor: 0.02 },
  ])("starts below $value at $floor", ({ value, floor }) => {
    expect(logAxisFloor(value)).toBe(floor);
    expect(logAxisFloor(value)).toBeLessThan(value);
  });
});

describe("niceStep", () => {
  it.each([
    [0.7, 0.5],
    [1.2, 1],
    [2.6, 2],
    [4, 5],
    [8, 10],
    [130, 100],
  ])("%d → %d", (raw, step) => {
    expect(niceStep(raw)).toBe(step);
  });
});

describe("axisTicks", () => {
  const room = vertical(330);
  it.each([
    // Seconds of a run: round ends around the data, about five steps.
    [
      { dataMin: 0.5, dataMax: 9.5 },
      { min: 0, max: 10, ticks: [0, 2, 4, 6, 8, 10] },
    ],
    [
      { dataMin: 3, dataMax: 117, includeZero: true },
      { min: 0, max: 120 },
    ],
    // Fixed ends stay as given; the ticks are the round values inside them.
    [
      { dataMin: 2.3, dataMax: 9, min: 2.3, max: 9.4 },
      { min: 2.3, max: 9.4, ticks: [3, 4, 5, 6, 7, 8, 9] },
    ],
    [{ dataMin: 0, dataMax: 1, min: 0, max: 1 }, { ticks: [0, 0.2, 0.4, 0.6, 0.8, 1] }],
    // One value: a span around it; none: 0 to 1.
    [
      { dataMin: 4, dataMax: 4 },
      { min: 2, max: 6, ticks: [2, 3, 4, 5, 6] },
    ],
    [
      { dataMin: Number.NaN, dataMax: Number.NaN },
      { min: 0, max: 1 },
    ],
  ])("linear %j", (extent, expected) => {
    expect(axisTicks({ scale: "linear", ...extent }, room)).toMatchObject(expected);
  });

  it.each([
    // Log ends at 1, 2 or 5 × 10^k around the data, ticks as logTicks gives them for that room.
    [
      { dataMin: 6.2, dataMax: 1043 },
      { min: 5, max: 2000 },
    ],
    [
      { dataMin: 1, dataMax: 100 },
      { min: 1, max: 100 },
    ],
    [
      { dataMin: 0.5, dataMax: 4000, min: 0.5 },
      { min: 0.5, max: 5000 },
    ],
    [
      { dataMin: Number.NaN, dataMax: Number.NaN },
      { min: 1, max: 10 },
    ],
  ])("log %j", (extent, expected) => {
    const axis = axisTicks({ scale: "log", ...extent }, room);
    expect(axis).toMatchObject(expected);
    expect(axis.ticks).toEqual(logTicks(axis.min, axis.max, room));
  });
});

describe("wantsLogAxis", () => {
  it.each([
    [[5, 90], false],
    [[5, 101], true],
    // Zeros and negatives cannot sit on a log axis: they neither count nor make it linear.
    [[0, -3, 2, 50], true],
    [[0, 0], false],
  ])("%j → %s", (values, log) => {
    expect(wantsLogAxis(values)).toBe(log);
  });
});
