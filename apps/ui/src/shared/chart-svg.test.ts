import { describe, expect, it } from "vitest";
import { drawnChartSvg, type DrawnChart } from "./chart-svg.ts";
import { fileNameOf } from "./download-file.ts";

const chart: DrawnChart = {
  width: 600,
  height: 300,
  background: "#ffffff",
  text: "#333333",
  grid: "#eeeeee",
  fontFamily: "Inter, sans-serif",
  fontSize: 12,
  area: { left: 50, top: 10, right: 590, bottom: 260 },
  gridLines: [{ from: [50, 100], to: [590, 100] }],
  labels: [
    { at: [40, 100], text: "10", anchor: "end" },
    { at: [15, 135], text: "latency <ms> & more", anchor: "middle", rotate: -90, bold: true },
  ],
  shapes: [
    {
      kind: "area",
      points: [
        [50, 200],
        [100, 150],
        [100, 220],
        [50, 230],
      ],
      color: "#2f6fde80",
    },
    {
      kind: "line",
      points: [
        [50, 210],
        [100.04, 160],
      ],
      color: "#c62f3a",
      width: 4,
      dash: [8, 5],
    },
    { kind: "rect", x: 60, y: 100, width: 20, height: 160, color: "#a07800" },
    { kind: "dot", at: [100, 160], radius: 5.5, color: "#c62f3a" },
  ],
  legend: [
    { at: [60, 280], swatch: 18, text: "p99", color: "#c62f3a", dash: [], hidden: false },
    { at: [120, 280], swatch: 18, text: "p99.9", color: "#9c2a7a", dash: [2, 4], hidden: true },
  ],
};

describe("drawnChartSvg", () => {
  const svg = drawnChartSvg(chart, 'CDF "fit"');

  it("is a standalone SVG document of the chart's size, on its background", () => {
    expect(svg).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="600" height="300"/,
    );
    expect(svg).toContain("<title>CDF &quot;fit&quot;</title>");
    expect(svg).toContain('<rect width="100%" height="100%" fill="#ffffff"/>');
  });

  it("draws every shape as a vector, clipped to the plot", () => {
    expect(svg).toContain('<clipPath id="plot"><rect x="50" y="10" width="540" height="250"/>');
    expect(svg).toContain('<polygon points="50,200 100,150 100,220 50,230" fill="#2f6fde80"');
    expect(svg).toContain(
      '<polyline points="50,210 100,160" fill="none" stroke="#c62f3a" stroke-width="4" stroke-linejoin="round" stroke-dasharray="8 5"/>',
    );
    expect(svg).toContain('<rect x="60" y="100" width="20" height="160" fill="#a07800"/>');
    expect(svg).toContain('<circle cx="100" cy="160" r="5.5" fill="#c62f3a"/>');
  });

  it("writes labels and legend as text, escaped, a hidden entry faded", () => {
    expect(svg).toContain(">latency &lt;ms&gt; &amp; more</text>");
    expect(svg).toContain('transform="rotate(-90 15 135)"');
    expect(svg).toMatch(
      /<g opacity="0.4"><line [^>]*stroke-dasharray="2 4"\/><text[^>]*>p99.9<\/text>/,
    );
  });
});

describe("fileNameOf", () => {
  it.each([
    ["p99 latency against object size", "taillab-p99-latency-against-object-size.png"],
    ["延迟随对象大小的变化", "taillab-延迟随对象大小的变化.png"],
    ["???", "taillab-chart.png"],
  ])("%s → %s", (title, name) => {
    expect(fileNameOf(title, "png")).toBe(name);
  });
});
