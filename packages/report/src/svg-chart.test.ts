import { describe, expect, it } from "vitest";
import { markup } from "./html.ts";
import { renderChart, type ChartSeries, type ChartSpec, type Point } from "./svg-chart.ts";

function chart(overrides: Partial<ChartSpec>): string {
  return renderChart({
    id: "t1",
    title: "Title",
    x: { label: "x", scale: "linear" },
    y: { label: "y", scale: "linear" },
    series: [],
    ...overrides,
  }).text;
}

/** A black line "a" through `points`. */
const lineThrough = (points: Point[]): ChartSeries => ({
  kind: "line",
  key: "a",
  label: "a",
  color: "#000",
  points,
});
/** How many times `letter` stands in the path data of the chart's first path of `kind`. */
const pathCount = (svg: string, kind: "line" | "band", letter: string) =>
  new RegExp(`<path\\s+class="${kind}"\\s+d="([^"]+)"`).exec(svg)?.[1]?.split(letter).length;

const tickLabels = (svg: string) =>
  [...svg.matchAll(/<text class="tick"[^>]*>([^<]*)<\/text>/g)].map((match) => match[1]);

describe("renderChart", () => {
  it.each([
    [
      [0.8, 1200],
      ["1", "10", "100", "1,000"],
    ],
    [
      [3, 40],
      ["2", "5", "10", "20", "50"],
    ],
  ])("puts log ticks on round values for data spanning %j", (range, expected) => {
    const svg = chart({
      y: { label: "y", scale: "log" },
      series: [
        { kind: "line", key: "a", label: "a", color: "#000", points: range.map((y, x) => [x, y]) },
      ],
    });
    for (const label of expected) expect(tickLabels(svg)).toContain(label);
  });

  it("breaks a line where a value cannot sit on a log axis", () => {
    const svg = chart({
      y: { label: "y", scale: "log" },
      series: [
        lineThrough([
          [0, 1],
          [1, 0],
          [2, 10],
          [3, 100],
        ]),
      ],
    });
    const path = /<path class="line" d="([^"]+)"/.exec(svg)?.[1] ?? "";
    expect(path.match(/M/g)).toHaveLength(2);
    expect(path.match(/L/g)).toHaveLength(1);
  });

  it("breaks a line and a band at a gap (null), as the app's charts leave one", () => {
    const svg = chart({
      series: [
        {
          kind: "band",
          key: "b",
          label: "b",
          color: "#000",
          points: [
            { x: 0, low: 1, high: 2 },
            { x: 1, low: 1, high: 3 },
            { x: 2, low: null, high: null },
            { x: 3, low: 2, high: 4 },
          ],
        },
        lineThrough([
          [0, 1],
          [1, 2],
          [2, null],
          [3, 3],
        ]),
      ],
    });
    // Two stretches each: a line of two points and one of one; two closed band outlines.
    expect([pathCount(svg, "line", "M"), pathCount(svg, "line", "L")]).toEqual([3, 2]);
    expect([pathCount(svg, "band", "M"), pathCount(svg, "band", "Z")]).toEqual([3, 3]);
  });

  it("ties legend buttons to the series they toggle, scoped by chart id", () => {
    const svg = chart({
      series: [
        {
          kind: "line",
          key: "a",
          label: "first",
          color: "#111",
          points: [
            [0, 1],
            [1, 2],
          ],
        },
        {
          kind: "band",
          key: "b",
          label: "second",
          color: "#222",
          points: [{ x: 0, low: 1, high: 2 }],
        },
      ],
      markers: [{ axis: "y", value: 1.5, label: "mark", color: "#333", seriesKey: "b" }],
      legendHint: "click",
    });
    expect(svg.match(/<button[^>]*data-series="t1-s0"/g)).toHaveLength(1);
    expect(svg.match(/<button[^>]*data-series="t1-s1"/g)).toHaveLength(1);
    expect(svg.match(/<g[^>]*data-series="t1-s1"/g)).toHaveLength(2);
    expect(svg).toContain('title="click"');
  });

  it("leaves out the legend of a single series unless asked", () => {
    const series = [
      {
        kind: "bars" as const,
        key: "a",
        label: "only",
        color: "#111",
        bars: [{ x0: 0, x1: 1, y: 3 }],
      },
    ];
    expect(chart({ series })).not.toContain("<button");
    expect(chart({ series, legend: true })).toContain("<button");
  });

  it("escapes titles, labels and captions", () => {
    const svg = chart({
      title: "<script>x</script>",
      x: { label: '"x" & <y>', scale: "linear" },
      series: [{ kind: "line", key: "a", label: "<b>", color: "#111", points: [[0, 1]] }],
      caption: markup`<em>${"<i>"}</em>`,
      legend: true,
    });
    expect(svg).not.toMatch(/<script|<b>|<i>|<y>/);
    expect(svg).toContain("&lt;script&gt;x&lt;/script&gt;");
    expect(svg).toContain("&quot;x&quot; &amp; &lt;y&gt;");
    expect(svg).toContain("<em>&lt;i&gt;</em>");
  });

  it("draws a single point as a dot", () => {
    const svg = chart({
      series: [{ kind: "line", key: "a", label: "a", color: "#111", points: [[4, 2]] }],
    });
    expect(svg.match(/<circle/g)).toHaveLength(1);
  });
});
