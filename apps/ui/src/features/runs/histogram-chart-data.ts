import type { HistogramView } from "@taillab/core";

export interface HistogramBar {
  lowMs: number;
  highMs: number;
  /** null for an empty bin: a log count axis has no place for 0, so it gets no bar. */
  count: number | null;
}

export interface HistogramData {
  bars: HistogramBar[];
  totalCount: number;
  /** log: bins of equal ratio, so equal-width bars on a category axis read as a log x axis. */
  binScale: HistogramView["binScale"];
}

/** Bars from core's histogram view (50 log bins by default, as the report draws them). */
export function histogramChartData(view: HistogramView): HistogramData {
  return {
    bars: view.bins.map((bin) => ({
      lowMs: bin.lowMs,
      highMs: bin.highMs,
      count: bin.count > 0 ? bin.count : null,
    })),
    totalCount: view.totalCount,
    binScale: view.binScale,
  };
}
