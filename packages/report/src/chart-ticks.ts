/**
 * Ticks for log axes that never collide, the one rule for the app's Chart.js axes and the HTML
 * report's SVG ones, so both show the same ticks for the same axis. Chart.js puts a tick at every 1…9 of each decade and
 * labels them all when given a label callback, so 7, 8, 9 and 10 pile up at the top of a decade.
 * Here the roundest values come first (decades, then 2 and 5, then 3) and each is kept only where
 * its label has room beside the ones already kept; an axis shorter than a decade also gets 4, 6,
 * 8, 7 and 9, or, holding fewer than two of those, evenly spaced round values.
 */

/**
 * Multiples of a power of ten, roundest first: each group is tried after the one before. The
 * last groups only on an axis shorter than a decade, where the round ones are too few; on a
 * longer one 7 or 40 beside 10 and 50 reads as noise.
 */
const LOG_MANTISSAS: readonly (readonly number[])[] = [[1], [2, 5], [3]];
const SHORT_AXIS_MANTISSAS: readonly (readonly number[])[] = [
  [4, 6, 8],
  [7, 9],
];

export interface TickRoom {
  /** The axis's length on screen. */
  lengthPx: number;
  /** A label's extent along the axis: its width on a horizontal axis, its height on a vertical one. */
  labelPx: (value: number) => number;
  /** Free space between two neighbouring labels. */
  gapPx: number;
}

/** Width of a digit in tick labels, as a fraction of the font size. */
const DIGIT_WIDTH = 0.62;

/**
 * The room of an axis drawn with tick labels of `fontSize` px: a label as wide as its text on a
 * horizontal axis, one line high on a vertical one.
 */
export function axisTickRoom(axis: {
  lengthPx: number;
  horizontal: boolean;
  fontSize: number;
  label: (value: number) => string;
}): TickRoom {
  const { fontSize, horizontal, label } = axis;
  return {
    lengthPx: axis.lengthPx,
    labelPx: horizontal
      ? (value) => label(value).length * fontSize * DIGIT_WIDTH
      : () => fontSize * 1.2,
    gapPx: fontSize * (horizontal ? 1 : 0.5),
  };
}

/** A round step (1, 2 or 5 × 10^k) close to `raw`. */
export function niceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  const step = fraction < 1.5 ? 1 : fraction < 3.5 ? 2 : fraction < 7.5 ? 5 : 10;
  return step * power;
}

/** The 1-2-5… values between min and max, a list per mantissa group, roundest group first. */
function logCandidates(min: number, max: number): number[][] {
  const first = Math.floor(Math.log10(min));
  const last = Math.ceil(Math.log10(max));
  const inside = (value: number) => value >= min * (1 - 1e-9) && value <= max * (1 + 1e-9);
  const groups = max / min < 10 ? [...LOG_MANTISSAS, ...SHORT_AXIS_MANTISSAS] : LOG_MANTISSAS;
  return groups.map((mantissas) => {
    const values: number[] = [];
    for (let exponent = first; exponent <= last; exponent += 1) {
      for (const mantissa of mantissas) {
        // Rounded to 12 significant digits so 3 × 10^-3 reads 0.003, not 0.0030000000000000005.
        const value = Number((mantissa * 10 ** exponent).toPrecision(12));
        if (inside(value)) values.push(value);
      }
    }
    return values;
  });
}

/** Multiples of a round step inside [min, max], for a range too narrow for 1-2-5 values. */
function linearCandidates(min: number, max: number, count: number): number[] {
  const step = niceStep((max - min) / Math.max(1, count));
  const values: number[] = [];
  for (let value = Math.ceil(min / step) * step; value <= max + step * 1e-9; value += step) {
    values.push(Number(value.toPrecision(12)));
  }
  return values;
}

/**
 * Tick values for a log axis from `min` to `max` (both > 0): round values first, each kept only
 * if its label clears the labels already kept, in ascending order. At least the roundest value
 * inside the range when there is one; evenly spaced values when the range holds fewer than two.
 */
export function logTicks(min: number, max: number, room: TickRoom): number[] {
  if (!(min > 0) || !(max > min) || !Number.isFinite(max) || room.lengthPx <= 0) return [];
  const pxPerDecade = room.lengthPx / Math.log10(max / min);
  const position = (value: number) => Math.log10(value / min) * pxPerDecade;
  const kept: number[] = [];
  const fits = (value: number) =>
    kept.every(
      (other) =>
        Math.abs(position(value) - position(other)) >=
        (room.labelPx(value) + room.labelPx(other)) / 2 + room.gapPx,
    );
  const groups = logCandidates(min, max);
  if (groups.flat().length < 2) {
    const labelRoom = room.labelPx(max) + room.gapPx;
    groups.push(linearCandidates(min, max, Math.max(2, Math.floor(room.lengthPx / labelRoom))));
  }
  for (const group of groups) {
    for (const value of group) {
      if (!kept.includes(value) && fits(value)) kept.push(value);
    }
  }
  return kept.sort((a, b) => a - b);
}

/**
 * The round value (1, 2 or 5 × 10^k) a log axis should start at so that the smallest bar still
 * shows: below `value`, by a visible margin.
 */
export function logAxisFloor(value: number): number {
  if (!(value > 0) || !Number.isFinite(value)) return 1;
  const target = value / 1.25;
  const power = 10 ** Math.floor(Math.log10(target));
  const mantissa = target / power;
  const floor = mantissa >= 5 ? 5 : mantissa >= 2 ? 2 : 1;
  return Number((floor * power).toPrecision(12));
}
