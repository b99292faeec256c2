import type { IntervalStats } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { ratesOverTimeChartConfig } from "./chart-rates-over-time.ts";
import { seriesColor } from "./chart-theme.ts";
import { TEST_THEME as theme } from "./test-support/chart-theme-fixture.ts";

const labels = { x: "s", y: "per second", line: "line" };

const second = (startMs: number, requests: number, errors: number): IntervalStats => ({
  startMs,
  lengthMs: 1000,
  requests,
  errors,
  p50Ms: null,
  p99Ms: null,
  p999Ms: null,
  maxMs: null,
});

const intervals = [second(0, 120, 0), second(1000, 80, 4), second(2000, 0, 30)];

describe("ratesOverTimeChartConfig", () => {
  it("draws each second's answers per second at its middle, from 0, in the first colour", () => {
    const config = ratesOverTimeChartConfig(theme, intervals, { kind: "throughput", labels });
    const [line] = config.data.datasets;
    expect(line?.data).toEqual([
      { x: 0.5, y: 120 },
      { x: 1.5, y: 80 },
      { x: 2.5, y: 0 },
    ]);
    expect(line?.borderColor).toBe(seriesColor(theme, 0));
    expect(config.options?.scales?.y).toMatchObject({ type: "linear", beginAtZero: true });
  });

  it("draws each second's failures per second in the second colour", () => {
    const config = ratesOverTimeChartConfig(theme, intervals, { kind: "errors", labels });
    const [line] = config.data.datasets;
    expect(line?.data).toEqual([
      { x: 0.5, y: 0 },
      { x: 1.5, y: 4 },
      { x: 2.5, y: 30 },
    ]);
    expect(line?.borderColor).toBe(seriesColor(theme, 1));
  });

  it("stacks each second's failures by code, most failures at the bottom, under their total", () => {
    const counted: IntervalStats[] = [
      { ...second(0, 100, 3), bytes: 0, errorsByCode: { SlowDown: 1, Timeout: 2 } },
      { ...second(1000, 100, 1), bytes: 0, errorsByCode: { SlowDown: 1 } },
    ];
    const config = ratesOverTimeChartConfig(theme, counted, { kind: "errors", labels });
    expect(
      config.data.datasets.map(({ label, data, stack, fill }) => ({ label, data, stack, fill })),
    ).toEqual([
      {
        label: "SlowDown",
        data: [
          { x: 0.5, y: 1 },
          { x: 1.5, y: 1 },
        ],
        stack: "codes",
        fill: "origin",
      },
      {
        label: "Timeout",
        data: [
          { x: 0.5, y: 2 },
          { x: 1.5, y: 0 },
        ],
        stack: "codes",
        fill: "-1",
      },
      {
        label: "line",
        data: [
          { x: 0.5, y: 3 },
          { x: 1.5, y: 1 },
        ],
        stack: "total",
        fill: undefined,
      },
    ]);
    expect(config.data.datasets[1]?.borderColor).toBe(seriesColor(theme, 2));
    expect(config.options?.scales?.y).toMatchObject({ stacked: true });
  });

  it("draws no codes, unstacked, for a run stored before its seconds kept them", () => {
    const config = ratesOverTimeChartConfig(theme, intervals, { kind: "errors", labels });
    expect(config.data.datasets).toHaveLength(1);
    expect(config.options?.scales?.y).toMatchObject({ stacked: false });
  });

  it("draws each second's MiB moved per second in the third colour, and no point where unknown", () => {
    const moved = [
      { ...second(0, 10, 0), bytes: 3 * 1024 * 1024, errorsByCode: {} },
      second(1000, 5, 0),
    ];
    const config = ratesOverTimeChartConfig(theme, moved, { kind: "data", labels });
    const [line] = config.data.datasets;
    expect(line?.data).toEqual([{ x: 0.5, y: 3 }]);
    expect(line?.borderColor).toBe(seriesColor(theme, 2));
  });

  it("labels no ticks before the first second", () => {
    const config = ratesOverTimeChartConfig(theme, [], { kind: "errors", labels });
    expect(config.options?.scales?.x?.ticks?.display).toBe(false);
  });

  it("marks knob changes as dotted lines from 0 to the top of the rate, one legend entry, labels written", () => {
    const counted: IntervalStats[] = [
      { ...second(0, 100, 3), bytes: 0, errorsByCode: { SlowDown: 3 } },
      { ...second(1000, 100, 5), bytes: 0, errorsByCode: { SlowDown: 5 } },
    ];
    const markers = [
      { atMs: 700, label: "replicas 3" },
      { atMs: 1200, label: "mode hedged" },
    ];
    const config = ratesOverTimeChartConfig(theme, counted, {
      kind: "errors",
      labels: { ...labels, markers: "knob changes" },
      markers,
    });
    const [, , replicasLine, modeLine] = config.data.datasets;
    expect(replicasLine).toMatchObject({
      label: "knob changes",
      data: [
        { x: 0.7, y: 0 },
        { x: 0.7, y: 5 },
      ],
      borderColor: theme.text,
      borderDash: [2, 3],
    });
    expect(modeLine?.label).toBe("mode hedged");
    // On the stacked errors axis each marker is a stack of its own, not piled on the codes.
    expect(new Set(config.data.datasets.map((dataset) => dataset.stack)).size).toBe(4);
    const legend = config.options?.plugins?.legend?.labels?.filter;
    const shown = config.data.datasets.filter((_dataset, index) =>
      legend?.({ datasetIndex: index } as never, {} as never),
    );
    expect(shown.map((dataset) => dataset.label)).toEqual(["SlowDown", "line", "knob changes"]);
    expect(config.options?.plugins?.markerLabels).toMatchObject({
      datasetIndex: 2,
      labels: [
        { x: 0.7, text: "replicas 3" },
        { x: 1.2, text: "mode hedged" },
      ],
    });
  });
});
