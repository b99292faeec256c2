/**
 * `pnpm bench ui`: the desktop app's figures, measured through the browser host in Debian's
 * Chromium (headless):
 * - time from `pnpm start` to a usable window (the experiments list drawn from the backend);
 * - the UI's frame rate while a run goes at full engine speed on the embedded testbed;
 * - the engine throughput the UI costs while it watches a run: paired runs with and without it;
 * - time to open a stored run of 1 M requests and draw its latency timeline;
 * - in the live tail lab, the time from a knob's commit to the chart drawing a second begun after
 *   the change;
 * - from `pnpm start` through the tail lab's guide to its conclusion: clicks, keys and seconds.
 * The machine is shared, so each figure is printed with its 1-minute load average at its start
 * and end, and the run ends with one line per figure for a closing note.
 */
import { chromium, type Browser, type Page } from "@playwright/test";
import { createApiClient, type RequestRecord, type TailLabApi } from "@taillab/api";
import { openResultsStore } from "@taillab/store";
import { CHROMIUM_ARGS, SYSTEM_CHROMIUM } from "@taillab/test-support";
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import {
  sampleRecords,
  sampleRunInput,
  sampleSpec,
  sampleSummary,
} from "../../packages/store/src/test-support/sample-run.ts";
import { startNodeProgram, type RunningProcess } from "../support/processes.ts";
import { createFetchInvoke } from "../../apps/web/src/browser/fetch-invoke.ts";
import buildUi from "../support/global-setup.ts";
import { LecturerTour } from "../support/lecturer-tour.ts";
import { callApi } from "../support/page-api.ts";

const TIMELINE_RECORDS = Number(process.env.BENCH_TIMELINE_RECORDS ?? 1_000_000);
/** Pairs of runs without and with the UI, each pair's cost its own ratio. */
const PAIRS = 3;
/** Knob changes timed: stalls up and down, alternately. */
const KNOB_CHANGES = 20;
/** A change whose second is not drawn by then is counted as missed. */
const KNOB_TIMEOUT_MS = 30_000;
/** How long the page's work is measured while it watches, with no frame counter running. */
const WATCH_WINDOW_MS = 5_000;

const VIEWPORT = { width: 1440, height: 900 };

/** A closed-loop run on the embedded testbed's fastest profile: the engine's top speed. */
const FULL_SPEED = {
  experiment: {
    name: "full speed",
    description: "",
    endpointId: "testbed",
    spec: {
      clients: 16,
      samples: 60_000,
      objectSize: "4KiB",
      testbed: { replicas: 1, profile: "fast" },
    },
  },
};

/** A figure as measured: its one line for a closing note, and the readings behind it. */
interface Measured<T> {
  result: T;
  summary: string;
  details?: string[];
}

interface LaunchedApp {
  host: RunningProcess;
  url: string;
  page: Page;
  hostReadyMs: number;
  usableMs: number;
}

function format(value: number, digits = 0): string {
  return value.toLocaleString("en-US", { maximumFractionDigits: digits });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

function loadNow(): string {
  return format(loadavg()[0] ?? NaN, 1);
}

/**
 * `pnpm bench ui knobs`: the knob → chart figure alone, in a minute rather than the whole bench;
 * `pnpm bench ui watch`: what watching a full-speed run costs (the page's work, the frame rate
 * and the engine's throughput) alone.
 */
const part = process.argv[2] ?? "all";
if (!["all", "knobs", "watch"].includes(part)) {
  throw new Error(`pnpm bench ui: part "${part}" is not one of knobs, watch (or none for all)`);
}
const measures = (name: "knobs" | "watch" | "rest") => part === "all" || part === name;

const dataDir = await mkdtemp(join(tmpdir(), "taillab-ui-bench-"));
const resultsDir = join(dataDir, "results");
const browser = await chromium.launch({ executablePath: SYSTEM_CHROMIUM, args: CHROMIUM_ARGS });
const hosts: RunningProcess[] = [];
const summaries: string[] = [];
process.stdout.write(`${cpus().length} cores; 1-minute load average now ${loadNow()}\n`);
try {
  if (measures("rest")) await writeLargeRun(resultsDir, TIMELINE_RECORDS);
  // Built beforehand: the start-up figure is an installed app's, not a rebuild after an edit.
  buildUi();

  const app = await figure(async () => {
    const launched = await launchApp(browser, dataDir);
    return {
      result: launched,
      summary: `pnpm start → usable window (experiments listed): ${format(launched.usableMs)} ms`,
      details: [`pnpm start → host printed its URL: ${format(launched.hostReadyMs)} ms`],
    };
  });
  const { page, url } = app;

  if (measures("watch")) {
    // Also the warm-up for the pairs below: their first run is not the engine's first.
    const { frames, work } = await runWatched(page, hostApi(url), browser);
    await figure(async () => ({
      result: work,
      summary: `the Live run screen's own work while it watches a full-speed run, over ${WATCH_WINDOW_MS / 1000} s with nothing asking for frames: ${workText(work)}`,
    }));
    await figure(async () => ({
      result: frames,
      summary: `frame rate there when every frame is asked for (requestAnimationFrame): ${format(frames.fps, 1)} fps, p95 frame ${format(frames.p95FrameMs, 1)} ms, longest ${format(frames.longestFrameMs, 1)} ms`,
    }));
    await figure(() => throughputCost(page, url));
  }
  if (measures("rest")) {
    await figure(async () => {
      const timelineMs = await openTimeline(page, "bench-1m");
      return {
        result: timelineMs,
        summary: `open a ${format(TIMELINE_RECORDS)}-request run, timeline drawn: ${format(timelineMs)} ms`,
      };
    });
  }
  if (measures("knobs")) await figure(() => knobToChart(page));
  if (measures("rest")) await figure(() => launchToConclusion(browser));

  process.stdout.write(`\nFor the closing note, one line per figure:\n${summaries.join("\n")}\n`);
} finally {
  await browser.close();
  for (const host of hosts) await host.stop();
  await rm(dataDir, { recursive: true, force: true });
}

/**
 * Measures one figure and prints it with the machine's 1-minute load average at its start and
 * end (other work on a shared machine moves every figure here); keeps its line for the closing
 * note.
 */
async function figure<T>(measure: () => Promise<Measured<T>>): Promise<T> {
  const loadAtStart = loadNow();
  const { result, summary, details = [] } = await measure();
  const line = `${summary} [load ${loadAtStart} → ${loadNow()}]`;
  summaries.push(line);
  process.stdout.write(`${[line, ...details.map((detail) => `    ${detail}`)].join("\n")}\n`);
  return result;
}

/** `pnpm start` on `dir`, and a window on its URL showing the first screen (Experiments). */
async function launchApp(on: Browser, dir: string): Promise<LaunchedApp> {
  const launched = performance.now();
  const host = await startNodeProgram(
    "scripts/start.ts",
    ["--port", "0", "--data-dir", dir, "--results", join(dir, "results")],
    (lines) => lines.some((line) => /http:\/\/127\.0\.0\.1:\d+\/\S*/.test(line)),
  );
  hosts.push(host);
  const hostReadyMs = performance.now() - launched;
  const url = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(host.lines.join("\n"))?.[1] ?? "";
  const page = await on.newPage({ viewport: VIEWPORT });
  await page.goto(url);
  await page.getByTestId("experiment-row").first().waitFor();
  return { host, url, page, hostReadyMs, usableMs: performance.now() - launched };
}

/**
 * The host's HTTP API with the launch token, as a script (not a page) calls it: the browser
 * bridge's own fetch client, with no event subscription.
 */
function hostApi(launchUrl: string): TailLabApi {
  const token = new URL(launchUrl).searchParams.get("token") ?? "";
  const invoke = createFetchInvoke(new URL("/api/", launchUrl), {
    authorization: `Bearer ${token}`,
  });
  return createApiClient(invoke, () => () => undefined);
}

/** The same run started from the Live run screen, which draws it as it goes. */
async function runWatched(page: Page, host: TailLabApi, tracing?: Browser) {
  await page.getByTestId("nav-live").click();
  const { runId } = await callApi(page, "startRun", FULL_SPEED);
  await page.getByTestId("live-timeline").waitFor();
  const work = tracing ? await measurePageWork(page, tracing, WATCH_WINDOW_MS) : null;
  const frames = await page.evaluate(measureFrames, 5_000);
  return { opsPerSec: await readOpsPerSec(host, runId), frames, work };
}

/** What the page does per second while it watches, as Chromium counts it. */
interface PageWork {
  /**
   * CPU time of the renderer's main thread and of its whole process (CDP Performance ThreadTime,
   * ProcessTime), ms per s: what the page takes from the engine, however busy the machine.
   */
  mainThreadCpuMsPerS: number;
  rendererCpuMsPerS: number;
  /** The main thread's script, style and layout (wall time: a loaded machine stretches it). */
  scriptMsPerS: number;
  styleAndLayoutMsPerS: number;
  /** Times the live chart's canvas was drawn (Chart.js clears it at each draw), per s. */
  chartDrawsPerS: number;
  /** Frames the page's compositor produced (a trace's DrawFrame events), per s. */
  framesPerS: number;
  /** Its paints (a trace's Paint events), per s. */
  paintsPerS: number;
}

function workText(work: PageWork | null): string {
  if (!work) return "not measured";
  return [
    `main thread CPU ${format(work.mainThreadCpuMsPerS, 1)} ms/s`,
    `renderer CPU ${format(work.rendererCpuMsPerS, 1)} ms/s`,
    `(wall: script ${format(work.scriptMsPerS, 1)}, style and layout ${format(work.styleAndLayoutMsPerS, 1)})`,
    `live chart drawn ${format(work.chartDrawsPerS, 1)}×/s`,
    `${format(work.framesPerS, 1)} frames/s`,
    `${format(work.paintsPerS, 1)} paints/s`,
  ].join(", ");
}

/**
 * The page's work over `windowMs`: Chromium's own counters (CDP Performance) and a trace of the
 * frames and paints it made, with nothing in the page asking for frames; the live chart's draws
 * are counted by watching its canvas being cleared.
 */
async function measurePageWork(page: Page, browser: Browser, windowMs: number): Promise<PageWork> {
  await page.evaluate(countLiveChartDraws);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const metrics = async () => {
    const { metrics: list } = await cdp.send("Performance.getMetrics");
    return Object.fromEntries(list.map((metric) => [metric.name, metric.value]));
  };
  const drawsNow = () =>
    page.evaluate(() => (window as unknown as LiveChartDraws).liveChartDraws ?? 0);
  await browser.startTracing(page, {
    categories: ["devtools.timeline", "disabled-by-default-devtools.timeline.frame"],
  });
  const before = await metrics();
  const drawsBefore = await drawsNow();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, windowMs));
  const after = await metrics();
  const drawsAfter = await drawsNow();
  const seconds = (performance.now() - started) / 1000;
  const trace = JSON.parse((await browser.stopTracing()).toString()) as {
    traceEvents: { name: string }[];
  };
  await cdp.detach();
  const perSecond = (name: string) => ((after[name] ?? 0) - (before[name] ?? 0)) / seconds;
  const tracedPerSecond = (name: string) =>
    trace.traceEvents.filter((event) => event.name === name).length / seconds;
  return {
    mainThreadCpuMsPerS: perSecond("ThreadTime") * 1000,
    rendererCpuMsPerS: perSecond("ProcessTime") * 1000,
    scriptMsPerS: perSecond("ScriptDuration") * 1000,
    styleAndLayoutMsPerS: (perSecond("RecalcStyleDuration") + perSecond("LayoutDuration")) * 1000,
    chartDrawsPerS: (drawsAfter - drawsBefore) / seconds,
    framesPerS: tracedPerSecond("DrawFrame"),
    paintsPerS: tracedPerSecond("Paint"),
  };
}

interface LiveChartDraws {
  liveChartDraws?: number;
}

/** Runs in the page: counts the clears of a canvas in the live chart (one per Chart.js draw). */
function countLiveChartDraws() {
  const counted = window as unknown as LiveChartDraws;
  if (counted.liveChartDraws !== undefined) return;
  counted.liveChartDraws = 0;
  const prototype = CanvasRenderingContext2D.prototype;
  const clearRect = prototype.clearRect;
  prototype.clearRect = function (this: CanvasRenderingContext2D, ...area) {
    if (this.canvas.closest('[data-testid="live-timeline"]')) counted.liveChartDraws! += 1;
    return clearRect.apply(this, area);
  };
}

/**
 * The UI's cost to the engine: PAIRS pairs of the same full-speed run, one with no page open
 * (started over HTTP, nobody subscribed to its events) and one watched on the Live run screen.
 * Each pair's own ratio is its cost, as the two runs are next to each other in time; the pairs
 * alternate which run goes first, so a machine getting busier over a pair favours neither side.
 */
async function throughputCost(page: Page, url: string): Promise<Measured<number[]>> {
  const host = hostApi(url);
  const unwatched = async () => {
    await page.goto("about:blank");
    return readOpsPerSec(host, (await host.startRun(FULL_SPEED)).runId);
  };
  const watched = async () => {
    await page.goto(url);
    return (await runWatched(page, host)).opsPerSec;
  };
  const costs: number[] = [];
  const details: string[] = [];
  for (let pair = 0; pair < PAIRS; pair += 1) {
    const loadAtStart = loadNow();
    let withoutUi: number;
    let withUi: number;
    if (pair % 2 === 0) {
      withoutUi = await unwatched();
      withUi = await watched();
    } else {
      withUi = await watched();
      withoutUi = await unwatched();
    }
    costs.push(1 - withUi / withoutUi);
    details.push(
      `pair ${pair + 1} (${pair % 2 === 0 ? "without first" : "with first"}): GET ${format(withoutUi)} ops/s without the UI, ${format(withUi)} with it → cost ${percentText(costs.at(-1)!)} [load ${loadAtStart} → ${loadNow()}]`,
    );
  }
  return {
    result: costs,
    summary: `UI's throughput cost while it watches a full-speed run: median ${percentText(median(costs))} over ${PAIRS} alternated pairs (${costs.map(percentText).join(", ")}; goal < 5 %)`,
    details,
  };
}

function percentText(share: number): string {
  return `${format(share * 100, 1)} %`;
}

/** Waits for the run to end; GET ops/s of its read phase. */
async function readOpsPerSec(host: TailLabApi, runId: string): Promise<number> {
  while (await host.activeRun()) await new Promise((resolve) => setTimeout(resolve, 250));
  const detail = await host.getRun({ runId });
  const read = detail.summary.points[0]?.phases.find((phase) => phase.op === "GET");
  if (!read) throw new Error(`run ${runId} has no GET phase`);
  return read.opsPerSec;
}

/** Runs in the page: frames drawn over `durationMs`, from requestAnimationFrame. */
function measureFrames(durationMs: number) {
  return new Promise<{ fps: number; p95FrameMs: number; longestFrameMs: number }>((resolve) => {
    const intervals: number[] = [];
    let last = performance.now();
    const started = last;
    const onFrame = (now: number) => {
      intervals.push(now - last);
      last = now;
      if (now - started < durationMs) {
        requestAnimationFrame(onFrame);
        return;
      }
      intervals.sort((a, b) => a - b);
      resolve({
        fps: intervals.length / ((now - started) / 1000),
        p95FrameMs: intervals[Math.floor(intervals.length * 0.95)] ?? 0,
        longestFrameMs: intervals[intervals.length - 1] ?? 0,
      });
    };
    requestAnimationFrame(onFrame);
  });
}

/**
 * How long a knob takes to reach the live chart, KNOB_CHANGES times: stalls of 500 ms go from none
 * to 10 % of requests and back. Timed in the page, so neither the bench's round trips nor its
 * polling add to it: from the slider's commit (the key released; the Slider commits in its
 * keyup) to the first frame after the chart holds a second begun after the change (the timeline's
 * newest interval starts at or after the change's marker, and the marker has arrived). Whether
 * that second already shows the stalls is the lab spec's to judge: it depends on how quickly
 * the machine serves the lab's own requests, not on the UI.
 */
async function knobToChart(page: Page): Promise<Measured<number[]>> {
  await page.evaluate(() => (location.hash = "#/experiments"));
  await page
    .locator('[data-testid="experiment-row"][data-name="Live tail lab"]')
    .getByTestId("experiment-row-run")
    .click();
  await page.waitForFunction(
    () => Number(document.querySelector(".timeline-box")?.getAttribute("data-intervals")) > 2,
    undefined,
    { timeout: 60_000 },
  );
  const stalls = page.getByTestId("knob-stallProbability");
  await stalls.press("Home");
  await page.waitForTimeout(3000);
  const changes: KnobChange[] = [];
  for (let change = 0; change < KNOB_CHANGES; change += 1) {
    const markersBefore = await page.getByTestId("live-markers").locator("li").count();
    await page.evaluate(watchKnobToChart, { markersBefore, timeoutMs: KNOB_TIMEOUT_MS });
    await stalls.press(change % 2 === 0 ? "End" : "Home");
    const shown = await page.evaluate(() => (window as unknown as KnobWatch).knobToChart);
    changes.push(shown ?? { shownMs: Number.POSITIVE_INFINITY, secondBeganMs: Number.NaN });
  }
  await page.getByTestId("live-stop").click();
  await page.getByTestId("live-finished").waitFor();

  const shownMs = changes.map((change) => change.shownMs);
  const pastSecondMs = changes
    .filter((change) => Number.isFinite(change.shownMs))
    .map((change) => change.shownMs - change.secondBeganMs);
  const p50p90 = (values: readonly number[]) =>
    `p50 ${format(percentileOf(values, 0.5))} ms, p90 ${format(percentileOf(values, 0.9))} ms`;
  const missed = shownMs.filter((ms) => !Number.isFinite(ms)).length;
  return {
    result: shownMs,
    summary: `live lab: knob → chart over ${KNOB_CHANGES} changes (stalls 0 ↔ 10 %): ${p50p90(shownMs)}, ${missed} not drawn within ${KNOB_TIMEOUT_MS / 1000} s`,
    details: [
      `each change, ms: ${shownMs.map((ms) => format(ms)).join(", ")}`,
      // The part the app could shorten: the wait for the next second to begin is the chart's unit.
      `less the wait from the change to the next second's start (run clock): ${p50p90(pastSecondMs)}`,
    ],
  };
}

/** One knob change as the page saw it. */
interface KnobChange {
  /** From the commit to the chart's first frame with a second begun after the change. */
  shownMs: number;
  /** From the change's marker to the start of that second, on the run's clock. */
  secondBeganMs: number;
}

interface KnobWatch {
  knobToChart?: Promise<KnobChange | null>;
}

/** Runs in the page before the key press: sets `window.knobToChart`, null after `timeoutMs`. */
function watchKnobToChart({
  markersBefore,
  timeoutMs,
}: {
  markersBefore: number;
  timeoutMs: number;
}) {
  (window as unknown as KnobWatch).knobToChart = new Promise<KnobChange | null>((resolve) => {
    let committedAt: number | null = null;
    // Capturing on the document runs before React's listener on its root, where the Slider commits.
    const onKeyUp = () => (committedAt ??= performance.now());
    document.addEventListener("keyup", onKeyUp, { capture: true });
    /** ms from the change to the chart's newest second, once that began after the change. */
    const secondAfterChange = (): number | null => {
      const marked = document.querySelectorAll('[data-testid="live-markers"] li');
      if (committedAt === null || marked.length <= markersBefore) return null;
      const changedAtMs = Number(marked[marked.length - 1]?.getAttribute("data-at-ms"));
      const box = document.querySelector(".timeline-box");
      const secondBeganMs = Number(box?.getAttribute("data-last-start-ms")) - changedAtMs;
      return secondBeganMs >= 0 ? secondBeganMs : null;
    };
    const finish = (change: KnobChange | null) => {
      observer.disconnect();
      clearTimeout(timer);
      document.removeEventListener("keyup", onKeyUp, { capture: true });
      resolve(change);
    };
    const observer = new MutationObserver(() => {
      const secondBeganMs = secondAfterChange();
      if (secondBeganMs === null) return;
      observer.disconnect();
      const committed = committedAt!;
      // The chart redraws in the effect of the render that wrote this attribute; the next
      // frame is the first that shows it.
      requestAnimationFrame(() =>
        finish({ shownMs: performance.now() - committed, secondBeganMs }),
      );
    });
    observer.observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ["data-last-start-ms"],
    });
    const timer = setTimeout(() => finish(null), timeoutMs);
  });
}

function percentileOf(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? NaN;
}

/**
 * From `pnpm start` (a host of its own, on a fresh data folder: a first launch, no runs yet)
 * through the tail lab's guide to its conclusion, as the lecturer-journey spec walks it: the
 * clicks and keys a person gives (trusted events, counted by the page) and the seconds, the
 * lab's three runs included.
 */
async function launchToConclusion(
  on: Browser,
): Promise<Measured<{ clicks: number; keys: number; ms: number }>> {
  const started = performance.now();
  const elapsed = () => `${format((performance.now() - started) / 1000, 1)} s`;
  const legs: string[] = [];
  const { page, host } = await launchApp(on, await mkdtemp(join(dataDir, "first-launch-")));
  try {
    legs.push(`first screen ${elapsed()}`);
    await page.evaluate(countUserInput);
    const tour = new LecturerTour(page);
    await tour.openGuide();
    await tour.runLab();
    legs.push(`Run pressed ${elapsed()}`);
    await tour.watchRuns();
    legs.push(`runs watched ${elapsed()}`);
    await tour.compareModes();
    legs.push(`modes compared ${elapsed()}`);
    await tour.conclude();
    const ms = performance.now() - started;
    legs.push(`conclusion ${elapsed()}`);
    const { clicks, keys } = await page.evaluate(() => (window as unknown as UserInput).userInput);
    return {
      result: { clicks, keys, ms },
      summary: `launch → the tail lab guide's conclusion: ${clicks} clicks, ${keys} keys, ${format(ms / 1000, 1)} s (pnpm start to "What your runs showed", the lab's three runs included)`,
      details: [`legs: ${legs.join(", ")}`],
    };
  } finally {
    await page.close();
    await host.stop();
  }
}

interface UserInput {
  userInput: { clicks: number; keys: number };
}

/** Runs in the page: counts the clicks and key presses a person makes from now on. */
function countUserInput() {
  const counted = { clicks: 0, keys: 0 };
  (window as unknown as UserInput).userInput = counted;
  const options = { capture: true };
  document.addEventListener("click", (event) => event.isTrusted && (counted.clicks += 1), options);
  document.addEventListener("keydown", (event) => event.isTrusted && (counted.keys += 1), options);
}

async function openTimeline(page: Page, runId: string): Promise<number> {
  await page.evaluate(() => (location.hash = "#/runs"));
  const started = performance.now();
  await page.evaluate((id) => (location.hash = `#/runs/${id}`), runId);
  await page.getByTestId("timeline-chart").locator("canvas").waitFor();
  // The chart draws on the frame after its data arrives.
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  return performance.now() - started;
}

/** A stored run of `count` GETs, written through the results store as a real run is. */
async function writeLargeRun(dir: string, count: number): Promise<void> {
  const store = await openResultsStore(dir);
  const spec = sampleSpec({ samples: count });
  const input = { ...sampleRunInput("bench-1m", spec), name: "1 M requests" };
  const pool: RequestRecord[] = sampleRecords({
    keyPrefix: input.keyPrefix,
    op: "GET",
    count: 100_000,
    seed: 1,
  });
  const writer = await store.createRun(input);
  for (let written = 0; written < count; written += 1000) {
    const start = written % pool.length;
    writer.appendRecords(0, pool.slice(start, start + 1000));
    if (written % 50_000 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  await writer.finish(sampleSummary("bench-1m", spec, ["GET"]));
}
