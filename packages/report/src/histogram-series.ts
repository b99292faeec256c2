import type { HistogramView } from "@taillab/core";

export interface HistogramBar {
  lowMs: number;
  highMs: number;
  /** The bar's middle on the latency axis: geometric on a log axis, arithmetic on a linear one. */
  atMs: number;
  /** null for an empty bin: a log count axis has no place for 0, so it gets no bar. */
  count: number | null;
}

/**
 * The latency histogram as the app (Chart.js) and the report (SVG) draw it: core's bins (50 log
 * bins by default) as bars, on a latency axis from the fastest request to the slowest, so the bars
 * fill the plot.
 */
export interface HistogramSeries {
  bars: HistogramBar[];
  totalCount: number;
  /** log: bins of equal ratio, drawn on a log latency axis. */
  binScale: HistogramView["binScale"];
  fromMs: number;
  toMs: number;
}

export function histogramSeries(view: HistogramView): HistogramSeries {
  const log = view.binScale === "log";
  return {
    bars: view.bins.map((bin) => ({
      lowMs: bin.lowMs,
      highMs: bin.highMs,
      atMs: log ? Math.sqrt(bin.lowMs * bin.highMs) : (bin.lowMs + bin.highMs) / 2,
      count: bin.count > 0 ? bin.count : null,
    })),
    totalCount: view.totalCount,
    binScale: view.binScale,
    fromMs: view.minMs,
    toMs: view.maxMs,
  };
}
