/**
 * How far apart two #rrggbb colours look: CIE76 ΔE in CIELAB (D65). About 2 is the least a
 * person notices side by side; the palette keeps its meanings 20 or more apart.
 */
export function colorDistance(a: string, b: string): number {
  const [la, aa, ba] = lab(a);
  const [lb, ab, bb] = lab(b);
  return Math.hypot(la - lb, aa - ab, ba - bb);
}

/** How far apart two colours' hues are, in degrees of CIELAB's hue angle (0 to 180). */
export function hueDistance(a: string, b: string): number {
  const angle = (hex: string) => {
    const [, green, blue] = lab(hex);
    return (Math.atan2(blue, green) * 180) / Math.PI;
  };
  const apart = Math.abs(angle(a) - angle(b)) % 360;
  return Math.min(apart, 360 - apart);
}

/** WCAG 2's contrast ratio of two #rrggbb colours, 1 to 21 (3 is the least for a chart's lines). */
export function contrastRatio(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, b] = linearRgb(hex);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * A colour as it shows over an opaque `background`: #rrggbb as it is, #rrggbbaa (withAlpha's)
 * blended by its alpha, as a canvas paints it.
 */
export function shownOver(color: string, background: string): string {
  const alpha = color.length === 9 ? parseInt(color.slice(7, 9), 16) / 255 : 1;
  const channel = (hex: string, at: number) => parseInt(hex.slice(at, at + 2), 16);
  return `#${[1, 3, 5]
    .map((at) => Math.round(alpha * channel(color, at) + (1 - alpha) * channel(background, at)))
    .map((value) => value.toString(16).padStart(2, "0"))
    .join("")}`;
}

function linearRgb(hex: string): [number, number, number] {
  return [1, 3, 5].map((at) => {
    const value = parseInt(hex.slice(at, at + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
}

function lab(hex: string): [number, number, number] {
  const [r, g, b] = linearRgb(hex);
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  const x = f((r * 0.4124 + g * 0.3576 + b * 0.1805) / 0.95047);
  const y = f(r * 0.2126 + g * 0.7152 + b * 0.0722);
  const z = f((r * 0.0193 + g * 0.1192 + b * 0.9505) / 1.08883);
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
}
