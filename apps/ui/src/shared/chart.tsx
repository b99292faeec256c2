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
import { useEffect, useLayoutEffect, useRef, useSyncExternalStore } from "react";
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

/** The root attributes theme.css keys its tokens on: when they change, the tokens change. */
const TOKEN_ATTRIBUTES = ["data-theme", "data-projector"];

function subscribeToTokens(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, {
    attributes: true,
    attributeFilter: TOKEN_ATTRIBUTES,
  });
  return () => observer.disconnect();
}

function tokensSnapshot(): string {
  const root = document.documentElement;
  return TOKEN_ATTRIBUTES.map((name) => root.getAttribute(name) ?? "").join("|");
}

/**
 * Which theme and projector mode the document shows, as the root's attributes say. Charts key on
 * this rather than on the settings store: the attributes are set in an effect of the app shell,
 * which runs after its children's effects, so a chart rebuilt on the store's change would read
 * the old theme's tokens. The attributes change only once the CSS tokens have.
 */
function useDocumentTokens(): string {
  return useSyncExternalStore(subscribeToTokens, tokensSnapshot, () => "");
}

/** data-* attributes for tests and tools: figures a chart shows, as numbers rather than pixels. */
export type ChartAttributes = Record<`data-${string}`, string | number | boolean | undefined>;

/**
 * One Chart.js canvas. `build` turns data and the theme's tokens into a configuration; the chart
 * is rebuilt when the document's theme or projector mode changes and updated in place (no
 * animation) when only `deps` change, so live charts redraw cheaply. With `resetZoomLabel` it gets
 * a button that undoes wheel zoom and drag pan (the configuration enables them, see
 * chart-options.ts).
 */
export function ChartCanvas<T extends ChartType>({
  build,
  deps,
  testId,
  label,
  resetZoomLabel,
  hint,
  attributes,
}: {
  build: (theme: ChartTheme) => ChartConfiguration<T>;
  deps: readonly unknown[];
  testId?: string;
  /** For screen readers: what the chart shows. */
  label: string;
  resetZoomLabel?: string;
  /** One line under the chart, e.g. how to zoom. */
  hint?: string;
  attributes?: ChartAttributes;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart<T> | null>(null);
  const tokens = useDocumentTokens();
  const buildRef = useRef(build);
  // Layout effects run before the effects below, so they always draw with the latest build.
  useLayoutEffect(() => {
    buildRef.current = build;
  });

  useEffect(() => {
    // Without a 2D context (a canvas-less test DOM, a renderer with canvas blocked) Chart.js
    // half-builds a chart that throws on its first update: show none rather than break the screen.
    if (!canvas.current?.getContext("2d")) return;
    const config = buildRef.current(readChartTheme());
    chart.current = new Chart(canvas.current, withDefaults(config));
    return () => {
      chart.current?.destroy();
      chart.current = null;
    };
  }, [tokens]);

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
    <div className="chart" data-testid={testId} {...attributes}>
      {resetZoomLabel ? (
        <div className="chart-tools">
          <button
            type="button"
            className="ghost small"
            data-testid={testId ? `${testId}-reset-zoom` : undefined}
            onClick={() => chart.current?.resetZoom()}
          >
            {resetZoomLabel}
          </button>
        </div>
      ) : null}
      <div className="chart-box">
        <canvas ref={canvas} role="img" aria-label={label} />
      </div>
      {hint ? <p className="chart-hint">{hint}</p> : null}
    </div>
  );
}

function withDefaults<T extends ChartType>(config: ChartConfiguration<T>): ChartConfiguration<T> {
  return {
    ...config,
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      ...config.options,
    },
  } as ChartConfiguration<T>;
}
