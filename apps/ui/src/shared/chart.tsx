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
  Title,
  Tooltip,
  type ChartConfiguration,
  type ChartOptions,
  type ChartType,
} from "chart.js";
import zoomPlugin from "chartjs-plugin-zoom";
import {
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import { useTranslation } from "react-i18next";
import { readDrawnChart } from "./chart-drawing.ts";
import { drawnChartSvg } from "./chart-svg.ts";
import { ChartFileSubject } from "./chart-file-name.ts";
import { readChartTheme, type ChartTheme } from "./chart-theme.ts";
import { downloadFile, fileNameOf } from "./download-file.ts";

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
  Title,
  Tooltip,
  zoomPlugin,
);

/** The root attributes theme.css keys its tokens on: when they change, the tokens change. */
const TOKEN_ATTRIBUTES = ["data-theme", "data-projector"];

/** Fonts that finished loading: a canvas drawn before the CJK font came needs drawing again. */
let fontsLoaded = 0;

function subscribeToTokens(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, {
    attributes: true,
    attributeFilter: TOKEN_ATTRIBUTES,
  });
  const onFonts = () => {
    fontsLoaded += 1;
    onChange();
  };
  document.fonts?.addEventListener("loadingdone", onFonts);
  return () => {
    observer.disconnect();
    document.fonts?.removeEventListener("loadingdone", onFonts);
  };
}

function tokensSnapshot(): string {
  const root = document.documentElement;
  return [...TOKEN_ATTRIBUTES.map((name) => root.getAttribute(name) ?? ""), fontsLoaded].join("|");
}

/**
 * Which theme and projector mode the document shows, as the root's attributes say, and how many
 * fonts have loaded. Charts key on
 * this rather than on the settings store: the attributes are set in an effect of the app shell,
 * which runs after its children's effects, so a chart rebuilt on the store's change would read
 * the old theme's tokens. The attributes change only once the CSS tokens have.
 */
function useDocumentTokens(): string {
  return useSyncExternalStore(subscribeToTokens, tokensSnapshot, () => "");
}

/** data-* attributes for tests and tools: figures a chart shows, as numbers rather than pixels. */
export type ChartAttributes = Record<`data-${string}`, string | number | boolean | undefined>;

/** How the user set a chart up with its tools: what `build` draws. */
export interface ChartView {
  /** The latency axis is logarithmic. */
  log: boolean;
}

/**
 * One Chart.js canvas, with its tools: PNG and SVG downloads of what it shows, a linear/log
 * switch when `logScale` is given (starting at the chart's own choice), a button that undoes
 * wheel zoom and drag pan with `resetZoomLabel` (the configuration enables them, see
 * chart-options.ts), and a chart's own controls (`tools`). `build` turns data, the theme's
 * tokens and the view into a configuration; the chart is rebuilt when the document's theme or
 * projector mode changes and updated in place (no animation, at most once a frame) when only
 * `deps` or the view change, so live charts redraw cheaply.
 */
export function ChartCanvas<T extends ChartType>({
  build,
  deps,
  testId,
  label,
  resetZoomLabel,
  onResetZoom,
  logScale,
  tools,
  hint,
  attributes,
}: {
  build: (theme: ChartTheme, view: ChartView) => ChartConfiguration<T>;
  deps: readonly unknown[];
  testId?: string;
  /** For screen readers, and the downloads' file names: what the chart shows. */
  label: string;
  resetZoomLabel?: string;
  /** What the reset button undoes instead of this chart's own zoom (a range charts share). */
  onResetZoom?: () => void;
  /** The chart's own choice of a log latency axis; the user may switch it. */
  logScale?: boolean;
  tools?: React.ReactNode;
  /** One line under the chart, e.g. how to zoom. */
  hint?: string;
  attributes?: ChartAttributes;
}) {
  const { t } = useTranslation("common");
  const subject = useContext(ChartFileSubject);
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart<T> | null>(null);
  const tokens = useDocumentTokens();
  const [logChoice, setLogChoice] = useState<boolean | null>(null);
  const [fullScreen, setFullScreen] = useState(false);
  const view: ChartView = { log: logChoice ?? logScale ?? false };
  const buildRef = useRef(() => build(readChartTheme(), view));
  // Layout effects run before the effects below, so they always draw with the latest build.
  useLayoutEffect(() => {
    buildRef.current = () => build(readChartTheme(), view);
  });

  // The frame that will redraw the chart with the latest build, if one is asked for.
  const redraw = useRef<number | null>(null);

  useEffect(() => {
    // Without a 2D context (a canvas-less test DOM, a renderer with canvas blocked) Chart.js
    // half-builds a chart that throws on its first update: show none rather than break the screen.
    if (!canvas.current?.getContext("2d")) return;
    chart.current = new Chart(canvas.current, withDefaults(buildRef.current()));
    return () => {
      if (redraw.current !== null) cancelAnimationFrame(redraw.current);
      redraw.current = null;
      chart.current?.destroy();
      chart.current = null;
    };
  }, [tokens]);

  // Changes that come within one frame (a second and a marker of a live chart) draw once, on
  // the next frame, with what the last of them built.
  useEffect(() => {
    if (!chart.current || redraw.current !== null) return;
    redraw.current = requestAnimationFrame(() => {
      redraw.current = null;
      const current = chart.current;
      if (!current) return;
      const config = withDefaults(buildRef.current());
      current.data = config.data;
      if (config.options) current.options = config.options;
      current.update("none");
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, view.log]);

  // Esc leaves full screen from wherever the focus is, as a video player's does.
  useEffect(() => {
    if (!fullScreen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setFullScreen(false);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [fullScreen]);

  const toolId = (name: string) => (testId ? `${testId}-${name}` : undefined);
  const download = async (format: "png" | "svg") => {
    const fileName = fileNameOf(`${subject} ${label}`, format);
    const copy = drawForExport(withDefaults(build(exportTheme(), view)), label);
    try {
      if (format === "svg") {
        const drawn = readDrawnChart(copy.chart as unknown as Chart, copy.theme);
        const svg = drawnChartSvg({ ...drawn, labels: [copy.title, ...drawn.labels] }, label);
        downloadFile({ fileName, mimeType: "image/svg+xml", content: svg });
        return;
      }
      downloadFile({ fileName, mimeType: "image/png", content: await pngOf(copy.canvas) });
    } finally {
      copy.chart.destroy();
    }
  };

  return (
    <div
      className={fullScreen ? "chart full-screen" : "chart"}
      data-testid={testId}
      data-log={view.log}
      data-full-screen={fullScreen}
      role={fullScreen ? "dialog" : undefined}
      aria-modal={fullScreen ? true : undefined}
      aria-label={fullScreen ? label : undefined}
      {...attributes}
    >
      <div className="chart-tools" role="toolbar" aria-label={t("chart.tools", { label })}>
        {tools}
        {logScale !== undefined ? (
          <label className="check small">
            <input
              type="checkbox"
              data-testid={toolId("log")}
              checked={view.log}
              onChange={(event) => setLogChoice(event.target.checked)}
            />
            {t("chart.log")}
          </label>
        ) : null}
        {resetZoomLabel ? (
          <button
            type="button"
            className="ghost small"
            data-testid={toolId("reset-zoom")}
            onClick={() => (onResetZoom ? onResetZoom() : chart.current?.resetZoom())}
          >
            {resetZoomLabel}
          </button>
        ) : null}
        <button
          type="button"
          className="ghost small"
          data-testid={toolId("full-screen")}
          aria-pressed={fullScreen}
          title={t(fullScreen ? "chart.closeFullScreenHint" : "chart.fullScreenHint")}
          onClick={() => setFullScreen(!fullScreen)}
        >
          {t(fullScreen ? "chart.closeFullScreen" : "chart.fullScreen")}
        </button>
        {(["png", "svg"] as const).map((format) => (
          <button
            key={format}
            type="button"
            className="ghost small"
            data-testid={toolId(format)}
            title={t(`chart.${format}Hint`)}
            onClick={() => void download(format)}
          >
            {format.toUpperCase()}
          </button>
        ))}
      </div>
      <div className="chart-box">
        <canvas ref={canvas} role="img" aria-label={label} />
      </div>
      {hint ? <p className="chart-hint">{hint}</p> : null}
    </div>
  );
}

/** A downloaded chart's size in CSS pixels, drawn at twice that: sharp on a slide or in print. */
const EXPORT_SIZE = { width: 1200, height: 675, pixelRatio: 2 };

/**
 * The chart tokens of the light theme at normal size, whatever the screen shows: a copy goes
 * on white paper or a slide, not into a dark window. Read from an element of its own that
 * theme.css styles as the light theme.
 */
function exportTheme(): ChartTheme {
  const probe = document.createElement("div");
  probe.dataset.theme = "light";
  probe.hidden = true;
  document.body.append(probe);
  try {
    return readChartTheme(probe);
  } finally {
    probe.remove();
  }
}

/** The chart drawn again off screen, titled, at the export size, in the light theme. */
function drawForExport<T extends ChartType>(config: ChartConfiguration<T>, title: string) {
  const theme = exportTheme();
  const canvas = document.createElement("canvas");
  canvas.width = EXPORT_SIZE.width;
  canvas.height = EXPORT_SIZE.height;
  const options = (config.options ?? {}) as ChartOptions;
  const titleFont = {
    family: theme.fontFamily,
    size: theme.fontSize * 1.2,
    weight: "bold" as const,
  };
  const chart = new Chart(canvas, {
    ...config,
    options: {
      ...options,
      responsive: false,
      devicePixelRatio: EXPORT_SIZE.pixelRatio,
      plugins: {
        ...options.plugins,
        title: { display: true, text: title, color: theme.text, font: titleFont },
      },
    },
  } as ChartConfiguration<T>);
  // The SVG copy draws its labels itself: the title's, where Chart.js put it (the title plugin
  // keeps its box on the chart as titleBlock, which Chart.js's types leave out).
  const block = (chart as { titleBlock?: { top: number; bottom: number } }).titleBlock;
  const titleLabel = {
    at: [EXPORT_SIZE.width / 2, block ? (block.top + block.bottom) / 2 : titleFont.size] as const,
    text: title,
    anchor: "middle" as const,
    bold: true,
  };
  return { chart, canvas, theme, title: titleLabel };
}

/** The canvas on white (Chart.js leaves it transparent), as a PNG. */
function pngOf(source: HTMLCanvasElement): Promise<Blob> {
  const copy = document.createElement("canvas");
  copy.width = source.width;
  copy.height = source.height;
  const context = copy.getContext("2d");
  if (context) {
    context.fillStyle = exportTheme().background;
    context.fillRect(0, 0, copy.width, copy.height);
    context.drawImage(source, 0, 0);
  }
  return new Promise((resolve, reject) =>
    copy.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error("the chart could not be saved as PNG"))),
      "image/png",
    ),
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
