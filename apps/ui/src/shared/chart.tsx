import {
  CategoryScale,
  Chart,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  BarController,
  BarElement,
  ScatterController,
  Tooltip,
  type ChartConfiguration,
  type ChartType,
} from "chart.js";
import zoomPlugin from "chartjs-plugin-zoom";
import { useEffect, useLayoutEffect, useRef } from "react";
import { useSettings } from "../app/settings-store.ts";
import { readChartTheme, type ChartTheme } from "./chart-theme.ts";

Chart.register(
  CategoryScale,
  LinearScale,
  LogarithmicScale,
  LineController,
  LineElement,
  PointElement,
  BarController,
  BarElement,
  ScatterController,
  Filler,
  Legend,
  Tooltip,
  zoomPlugin,
);

/**
 * One Chart.js canvas. `build` turns data and the theme's tokens into a configuration; the chart
 * is rebuilt when the theme or projector mode changes and updated in place (no animation) when
 * only `deps` change, so live charts redraw cheaply.
 */
export function ChartCanvas<T extends ChartType>({
  build,
  deps,
  testId,
  label,
}: {
  build: (theme: ChartTheme) => ChartConfiguration<T>;
  deps: readonly unknown[];
  testId?: string;
  /** For screen readers: what the chart shows. */
  label: string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart<T> | null>(null);
  const theme = useSettings((state) => state.theme);
  const projector = useSettings((state) => state.projector);
  const buildRef = useRef(build);
  // Layout effects run before the effects below, so they always draw with the latest build.
  useLayoutEffect(() => {
    buildRef.current = build;
  });

  useEffect(() => {
    if (!canvas.current) return;
    const config = buildRef.current(readChartTheme());
    chart.current = new Chart(canvas.current, withDefaults(config));
    return () => {
      chart.current?.destroy();
      chart.current = null;
    };
  }, [theme, projector]);

  useEffect(() => {
    const current = chart.current;
    if (!current) return;
    const config = withDefaults(buildRef.current(readChartTheme()));
    current.data = config.data;
    if (config.options) current.options = config.options;
    current.update("none");
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);

  return (
    <div className="chart-box" data-testid={testId}>
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  );
}

function withDefaults<T extends ChartType>(config: ChartConfiguration<T>): ChartConfiguration<T> {
  return {
    ...config,
    options: { animation: false, responsive: true, maintainAspectRatio: false, ...config.options },
  } as ChartConfiguration<T>;
}
