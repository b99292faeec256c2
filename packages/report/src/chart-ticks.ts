/**
 * The one rule for an axis's ends and ticks, linear or log, that the app's Chart.js axes and the
 * HTML report's SVG ones both follow (`axisTicks`), so the same run shows the same axes in both.
 *
 * Log axes: Chart.js puts a tick at every 1…9 of each decade and labels them all when given a
 * label callback, so 7, 8, 9 and 10 pile up at the top of a decade. Here the roundest values come
 * first (decades, then 2 and 5, then 3) and each is kept only where its label has room beside the
 * ones already kept; an axis shorter than a decade also gets 4, 6, 8, 7 and 9, or, holding fewer
 * than two of those, evenly spaced round values.
 *
 * Linear axes: multiples of a 1-2-5 step, about five intervals whatever the axis's length, so a
 * chart in a narrow window and in the report have the same ticks (a renderer may leave out labels
 * that would collide; the tick stays).
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

/** Values fit for a log axis: positive and finite. */
const onLogAxis = (value: number) => value > 0 && Number.isFinite(value);

/**
 * Values spread over more than this ratio are drawn on a log axis, so the body stays visible beside
 * a one-second stall: the one threshold of the app's charts and the report's.
 */
export const LOG_AXIS_RATIO = 20;

/** Whether positive values span more than `ratio` (zeros and negatives cannot sit on a log axis). */
export function wantsLogAxis(values: readonly number[], ratio = LOG_AXIS_RATIO): boolean {
  let min = Number.POSITIVE_INFINITY;
  let max = 0;
  for (const value of values) {
    if (!onLogAxis(value)) continue;
    min = Math.min(min, value);
    max = Math.max(max, value);
  }
  return max / min > ratio;
}

/** About this many steps from one end of a linear axis to the other. */
const LINEAR_STEPS = 5;

/** The largest 1, 2 or 5 × 10^k at or below `value` (> 0): where a log axis of data starts. */
function logFloor(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  const mantissa = value / power;
  return Number(((mantissa >= 5 ? 5 : mantissa >= 2 ? 2 : 1) * power).toPrecision(12));
}

/** The smallest 1, 2 or 5 × 10^k at or above `value` (> 0): where a log axis of data ends. */
function logCeil(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  const mantissa = value / power;
  if (mantissa <= 1 + 1e-9) return Number(power.toPrecision(12));
  return Number(((mantissa <= 2 ? 2 : mantissa <= 5 ? 5 : 10) * power).toPrecision(12));
}

export interface AxisExtent {
  scale: "linear" | "log";
  /** The data's extent along the axis; non-finite when the axis has no data yet. */
  dataMin: number;
  dataMax: number;
  /** Fixed ends, kept as given; otherwise the data's, widened to round values. */
  min?: number;
  max?: number;
  /** Linear axes: start at 0 even when the data does not (rates, counts). */
  includeZero?: boolean;
}

export interface AxisTicks {
  min: number;
  max: number;
  /** Ascending, inside [min, max]. */
  ticks: number[];
}

function linearAxisTicks(axis: AxisExtent): AxisTicks {
  let low = axis.min ?? (Number.isFinite(axis.dataMin) ? axis.dataMin : 0);
  let high = axis.max ?? (Number.isFinite(axis.dataMax) ? axis.dataMax : 1);
  if (axis.includeZero && axis.min === undefined) low = Math.min(0, low);
  if (high <= low) {
    // One value (or none): a span around it, from 0 when asked.
    const spread = Math.abs(low) > 0 ? Math.abs(low) * 0.5 : 1;
    low = axis.min ?? (axis.includeZero && low >= 0 ? 0 : low - spread);
    high = low + 2 * spread;
  }
  const step = niceStep((high - low) / LINEAR_STEPS);
  if (axis.min === undefined) low = Math.floor(low / step + 1e-9) * step;
  if (axis.max === undefined) high = Math.ceil(high / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let index = Math.ceil(low / step - 1e-9); index * step <= high + step * 1e-9; index += 1) {
    ticks.push(Number((index * step).toPrecision(12)));
  }
  return { min: Number(low.toPrecision(12)), max: Number(high.toPrecision(12)), ticks };
}

function logAxisTicks(axis: AxisExtent, room: TickRoom): AxisTicks {
  let low = axis.min ?? (onLogAxis(axis.dataMin) ? logFloor(axis.dataMin) : 1);
  let high = axis.max ?? (onLogAxis(axis.dataMax) ? logCeil(axis.dataMax) : 10);
  if (!onLogAxis(low)) low = high / 10;
  if (!(high > low)) high = low * 10;
  return { min: low, max: high, ticks: logTicks(low, high, room) };
}

/**
 * An axis's ends and ticks from its data: the ends widened to round values (multiples of the
 * step; 1, 2 or 5 × 10^k on a log axis) unless fixed, the ticks inside them. `room` matters only
 * on a log axis, whose ticks are thinned to what their labels leave room for.
 */
export function axisTicks(axis: AxisExtent, room: TickRoom): AxisTicks {
  return axis.scale === "log" ? logAxisTicks(axis, room) : linearAxisTicks(axis);
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
