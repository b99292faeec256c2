/**
 * WCAG 2 contrast of CSS colours as Chromium computes them (`rgb(…)`, `rgba(…)` and, for
 * `color-mix(in srgb, …)`, `color(srgb …)`). Pure, for the specs' checks of computed styles.
 */

export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

/** A computed colour as sRGB channels in 0..1 and its alpha; throws on a form it cannot read. */
export function parseComputedColor(text: string): Rgba {
  const rgb = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(text);
  if (rgb) {
    const [r, g, b] = [rgb[1], rgb[2], rgb[3]].map((value) => Number(value) / 255) as [
      number,
      number,
      number,
    ];
    return { r, g, b, a: rgb[4] === undefined ? 1 : Number(rgb[4]) };
  }
  const srgb = /^color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: \/ ([\d.]+))?\)$/.exec(text);
  if (srgb) {
    return {
      r: Number(srgb[1]),
      g: Number(srgb[2]),
      b: Number(srgb[3]),
      a: srgb[4] === undefined ? 1 : Number(srgb[4]),
    };
  }
  throw new Error(`colour "${text}": expected rgb(), rgba() or color(srgb …)`);
}

function relativeLuminance({ r, g, b }: Rgba): number {
  const linear = (channel: number) =>
    channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** `top` painted over an opaque `bottom`. */
export function over(top: Rgba, bottom: Rgba): Rgba {
  const mix = (a: number, b: number) => a * top.a + b * (1 - top.a);
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a: 1 };
}

/** The contrast ratio of two opaque colours, 1 to 21. */
export function contrastRatio(a: Rgba, b: Rgba): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (light + 0.05) / (dark + 0.05);
}
