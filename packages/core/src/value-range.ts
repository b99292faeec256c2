/**
 * The smallest and largest of some numbers, or null when there are none. One pass: spreading a
 * list into Math.min's arguments overflows the stack once it is long enough (a sweep, a list of
 * sizes a user typed), so this is how TailLab takes a list's extent.
 */
export function valueRange(values: Iterable<number>): { min: number; max: number } | null {
  let range: { min: number; max: number } | null = null;
  for (const value of values) {
    if (range === null) range = { min: value, max: value };
    else if (value < range.min) range.min = value;
    else if (value > range.max) range.max = value;
  }
  return range;
}
