/**
 * `pnpm bench ui`: the desktop app's figures, measured through the browser host in Debian's
 * Chromium (headless):
 * - time from `pnpm start` to a usable window (the experiments list drawn from the backend);
 * - the UI's frame rate while a run goes at full engine speed on the embedded testbed;
 * - engine throughput of the same run with and without the UI watching (goal: < 5 % loss);
 * - time to open a stored run of 1 M requests and draw its latency timeline;
 * - in the live tail lab, the time from moving a knob to the chart's newest second showing it;
 * - from the app's first screen to the normal vs hedged vs tied comparison: clicks and seconds.
 */
import { chromium, type Page } from "@playwright/test";
import { createApiClient, type RequestRecord, type TailLabApi } from "@taillab/api";
import { openResultsStore } from "@taillab/store";
import { CHROMIUM_ARGS, SYSTEM_CHROMIUM } from "@taillab/test-support";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
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
import { callApi } from "../support/page-api.ts";

const TIMELINE_RECORDS = Number(process.env.BENCH_TIMELINE_RECORDS ?? 1_000_000);
/** Alternating runs without and with the UI, so drift in the machine hits both alike. */
const PAIRS = 3;
/** Knob changes timed: stalls up and down, alternately. */
const KNOB_CHANGES = 20;

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

function format(value: number, digits = 0): string {
  return value.toLocaleString("en-US", { maximumFractionDigits: digits });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** `pnpm bench ui knobs`: the knob → chart figure alone, in a minute rather than the whole bench. */
const knobsOnly = process.argv[2] === "knobs";

const dataDir = await mkdtemp(join(tmpdir(), "taillab-ui-bench-"));
const resultsDir = join(dataDir, "results");
const browser = await chromium.launch({ executablePath: SYSTEM_CHROMIUM, args: CHROMIUM_ARGS });
let hostProcess: RunningProcess | null = null;
try {
  if (!knobsOnly) await writeLargeRun(resultsDir, TIMELINE_RECORDS);
  // Built beforehand: the start-up figure is an installed app's, not a rebuild after an edit.
  buildUi();

  const launched = performance.now();
  hostProcess = await startNodeProgram(
    "scripts/start.ts",
    ["--port", "0", "--data-dir", dataDir, "--results", resultsDir],
    (lines) => lines.some((line) => /http:\/\/127\.0\.0\.1:\d+\/\S*/.test(line)),
  );
  const hostReadyMs = performance.now() - launched;
  const url = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(hostProcess.lines.join("\n"))?.[1] ?? "";
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(url);
  await page.getByTestId("experiment-row").first().waitFor();
  const usableMs = performance.now() - launched;

  if (knobsOnly) {
    process.stdout.write(`${knobLine(await knobToChart(page))}\n`);
  } else {
    const host = hostApi(url);
    const withUi: number[] = [];
    const withoutUi: number[] = [];
    let frames = { fps: 0, p95FrameMs: 0, longestFrameMs: 0 };
    for (let pair = 0; pair < PAIRS; pair += 1) {
      // No page at all: the run started over HTTP, nobody subscribed to its events.
      await page.goto("about:blank");
      withoutUi.push(await readOpsPerSec(host, (await host.startRun(FULL_SPEED)).runId));
      await page.goto(url);
      const watched = await runWatched(page, host);
      withUi.push(watched.opsPerSec);
      if (pair === 0) frames = watched.frames;
    }

    const timelineMs = await openTimeline(page, "bench-1m");
    const knobs = await knobToChart(page);
    const comparison = await launchToComparison(
      await browser.newPage({ viewport: { width: 1440, height: 900 } }),
      url,
    );

    const loss = 1 - median(withUi) / median(withoutUi);
    const lines = [
      `pnpm start → host printed its URL   ${format(hostReadyMs)} ms`,
      `pnpm start → usable window          ${format(usableMs)} ms (experiments listed)`,
      `frame rate during a full-speed run  ${format(frames.fps, 1)} fps, p95 frame ${format(frames.p95FrameMs, 1)} ms, longest ${format(frames.longestFrameMs, 1)} ms`,
      `GET ops/s, no page open             ${withoutUi.map((value) => format(value)).join(", ")} (median ${format(median(withoutUi))})`,
      `GET ops/s, Live run screen watching ${withUi.map((value) => format(value)).join(", ")} (median ${format(median(withUi))})`,
      `throughput lost to the UI           ${format(loss * 100, 1)} % (goal < 5 %)`,
      `open a ${format(TIMELINE_RECORDS)}-request run, timeline drawn  ${format(timelineMs)} ms`,
      knobLine(knobs),
      `launch → normal vs hedged vs tied compared  ${comparison.clicks} clicks, ${format(comparison.ms / 1000, 1)} s (goal ≤ 2 clicks, ≤ 45 s)`,
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  }
} finally {
  await browser.close();
  await hostProcess?.stop();
  await rm(dataDir, { recursive: true, force: true });
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
async function runWatched(page: Page, host: TailLabApi) {
  await page.getByTestId("nav-live").click();
  const { runId } = await callApi(page, "startRun", FULL_SPEED);
  await page.getByTestId("live-timeline").waitFor();
  const frames = await page.evaluate(measureFrames, 5_000);
  return { opsPerSec: await readOpsPerSec(host, runId), frames };
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
 * How long a knob takes to show on the live chart: from the key press to the chart's newest
 * second, one that started after the change's marker, showing it. Stalls of 500 ms go from none
 * to 10 % of requests (that second's p99 above 400 ms) and back (below 400 ms), KNOB_CHANGES
 * times.
 */
async function knobToChart(page: Page): Promise<number[]> {
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
  const changes: number[] = [];
  for (let change = 0; change < KNOB_CHANGES; change += 1) {
    const up = change % 2 === 0;
    const markers = await page.getByTestId("live-markers").locator("li").count();
    const changed = performance.now();
    await stalls.press(up ? "End" : "Home");
    const shown = await page
      .waitForFunction(
        ({ markers, up }) => {
          const marked = document.querySelectorAll('[data-testid="live-markers"] li');
          if (marked.length <= markers) return false;
          const atMs = Number(marked[marked.length - 1]?.getAttribute("data-at-ms"));
          const box = document.querySelector(".timeline-box");
          const startMs = Number(box?.getAttribute("data-last-start-ms"));
          const p99Ms = Number(box?.getAttribute("data-last-p99-ms"));
          return startMs >= atMs && (up ? p99Ms > 400 : p99Ms < 400);
        },
        { markers, up },
        { timeout: 30_000, polling: 20 },
      )
      .then(
        () => true,
        // A machine too busy for the lab's own requests to be quick hides the change: a miss.
        () => false,
      );
    changes.push(shown ? performance.now() - changed : Number.POSITIVE_INFINITY);
  }
  await page.getByTestId("live-stop").click();
  await page.getByTestId("live-finished").waitFor();
  return changes;
}

function knobLine(changesMs: readonly number[]): string {
  const figures = [0.5, 0.9].map((share) => format(percentileOf(changesMs, share)));
  const missed = changesMs.filter((ms) => !Number.isFinite(ms)).length;
  return `live lab: knob → chart over ${changesMs.length} changes (stalls 0 ↔ 10 %)  p50 ${figures[0]} ms, p90 ${figures[1]} ms, ${missed} not shown within 30 s (goal: about one update interval)`;
}

function percentileOf(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? NaN;
}

/**
 * From the app's first screen to the tail lab's comparison: the clicks a person makes (counted
 * by the page) and the time, the runs included.
 */
async function launchToComparison(
  page: Page,
  url: string,
): Promise<{ clicks: number; ms: number }> {
  await page.goto(url);
  await page.getByTestId("experiment-row").first().waitFor();
  await page.evaluate(() => {
    const counted = window as unknown as { benchClicks: number };
    counted.benchClicks = 0;
    document.addEventListener(
      "click",
      (event) => {
        if (event.isTrusted) counted.benchClicks += 1;
      },
      true,
    );
  });
  const started = performance.now();
  await page
    .locator('[data-testid="experiment-row"][data-name="Tail latency: normal vs hedged vs tied"]')
    .getByTestId("experiment-row-run")
    .click();
  await page.getByTestId("compare-modes").click({ timeout: 180_000 });
  await page.getByTestId("mode-comparison").waitFor();
  const ms = performance.now() - started;
  const clicks = await page.evaluate(
    () => (window as unknown as { benchClicks: number }).benchClicks,
  );
  await page.close();
  return { clicks, ms };
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
