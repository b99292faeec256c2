import {
  cleanupLeftNothing,
  toApiError,
  type ActiveRun,
  type ApiError,
  type LiveTuning,
  type RunCleanup,
  type RunEvent,
  type RunMarker,
  type RunPointParams,
  type RunNotice,
  type RunProgress,
  type RunSeries,
  type RunSpec,
  type RunSummary,
} from "@taillab/api";
import type { ResultsStore } from "@taillab/store";
import { randomBytes } from "node:crypto";
import type { SecretSources } from "../credentials.ts";
import { InputError } from "../input-error.ts";
import type { LiveSession } from "../live-session.ts";
import { runAndRecord } from "../recorded-run.ts";
import { runOnCluster, type ClusterRunHooks, type ClusterTarget } from "./cluster-run.ts";
import { noticeText } from "../run-notices.ts";
import { measuredRequestCount } from "./experiment-spec.ts";
import { LiveRunView, type ProgressEvent } from "./live-run-view.ts";
import { createThrottle } from "./progress-throttle.ts";

/**
 * Progress for a person at 4 updates a second: smooth enough to watch, and rare enough that a
 * window drawing every update costs the run it is watching little CPU (pnpm bench ui).
 */
const PROGRESS_INTERVAL_MS = 250;

/** An experiment ready to run: one checked spec per run of the series. */
export interface RunPlan {
  name: string;
  specs: readonly RunSpec[];
  points: RunPointParams[];
  /** N pods on a Kubernetes cluster instead of this machine. */
  cluster: ClusterTarget | null;
}

export interface RunManager {
  /**
   * Starts the series and answers once its first run has started (endpoint checks passed, the
   * run in the store); bad input or a failed check rejects. One series at a time: a start while
   * the last one is only cleaning up after its reported end waits for that cleanup.
   */
  start(plan: RunPlan): Promise<{ runId: string }>;
  /** Stops the series a run belongs to; answers when it has stopped. Nothing if it has ended. */
  stop(runId: string): Promise<void>;
  /**
   * Moves knobs of the live session `runId`; answers its marker. An InputError naming runId
   * when that run is not a live session that runs now.
   */
  retune(runId: string, change: Partial<LiveTuning>): Promise<RunMarker>;
  active(): ActiveRun | null;
  /** Stops whatever runs and waits for it. */
  close(): Promise<void>;
}

/** The engine's latest progress, and its event once that had to be built early. */
interface HeldProgress {
  progress: RunProgress;
  event: ProgressEvent | null;
}

interface Series {
  stop: AbortController;
  runIds: string[];
  active: ActiveRun | null;
  /** The active run's knobs, when it is a live session. */
  live: LiveSession | null;
  /**
   * Its last run was reported finished and only that run's cleanup is left: a new series waits
   * for it instead of being refused (nor running beside the cleanup's requests).
   */
  cleaningUp: boolean;
  done: Promise<void>;
}

/**
 * Runs experiments through runAndRecord into the results store, one run per mode in sequence
 * (tagged `series:<id>` when there are several), and tells every listener how they go: started,
 * progress (throttled, with live percentiles and percentiles over time), notices (an English
 * sentence and the same as data), finished.
 */
export function createRunManager(options: {
  store: ResultsStore;
  secrets: SecretSources;
  emit: (event: RunEvent) => void;
}): RunManager {
  const { store, secrets, emit } = options;
  let current: Series | null = null;

  async function runSeries(
    plan: RunPlan,
    series: Series,
    started: { resolve: (runId: string) => void; reject: (error: unknown) => void },
  ): Promise<void> {
    const count = plan.specs.length;
    const tags = count > 1 ? [`series:${randomBytes(4).toString("hex")}`] : [];
    for (const [index, spec] of plan.specs.entries()) {
      if (series.stop.signal.aborted) break;
      const place: RunSeries = { index, count, mode: spec.mode };
      const name = count > 1 ? `${plan.name} (${spec.mode})` : plan.name;
      const live = new LiveRunView();
      // The event is built when its turn comes, from the records seen by then; a phase's last
      // one is built when the next phase starts and is sent before that phase's first.
      const progress = createThrottle(PROGRESS_INTERVAL_MS, (update: HeldProgress) =>
        emit(update.event ?? live.progressEvent(update.progress)),
      );
      // Notices before the run has an id (the testbed's address) are sent after `started`.
      const earlyNotices: { message: string; notice?: RunNotice }[] = [];
      let runId: string | null = null;
      // Said once the measuring ends: a stopped run is reported at once, its cleanup follows.
      let reported = false;
      const report = async (summary: RunSummary) => {
        reported = true;
        await progress.flush();
        series.active = null;
        series.live = null;
        series.cleaningUp = index === count - 1 || series.stop.signal.aborted;
        emit(finished(summary.runId, summary.status, null, place, series.runIds));
      };
      try {
        const hooks: ClusterRunHooks = {
          signal: series.stop.signal,
          onRunStart: async (start) => {
            runId = start.runId;
            series.runIds.push(runId);
            series.live = start.live;
            const requestCount = measuredRequestCount(spec, plan.points);
            series.active = {
              runId,
              name,
              points: plan.points,
              requestCount,
              startedAt: new Date().toISOString(),
              series: place,
              lastProgress: null,
              shards: null,
            };
            emit({
              type: "started",
              runId,
              name,
              points: plan.points,
              requestCount,
              series: place,
              ...(start.live ? { tuning: start.live.tuning } : {}),
            });
            for (const early of earlyNotices) emit({ type: "notice", runId, ...early });
            started.resolve(runId);
          },
          onPhaseStart: (pointIndex, op) => {
            progress.keep((held) => ({
              progress: held.progress,
              event: held.event ?? live.progressEvent(held.progress),
            }));
            live.startPhase(pointIndex, op);
          },
          onProgress: (update, figures) => {
            if (series.active) series.active.lastProgress = update;
            live.update(update, figures);
            progress.push({ progress: update, event: null });
          },
          onMarker: (marker) => {
            if (runId !== null) emit({ type: "retuned", runId, marker });
          },
          onNotice: (message, notice) => {
            if (runId === null) earlyNotices.push({ message, notice });
            else emit({ type: "notice", runId, message, notice });
          },
          onMeasured: report,
          onCleanup: async (cleanup) => {
            const notice = cleanupNotice(cleanup);
            if (runId !== null && notice) {
              emit({ type: "notice", runId, message: noticeText(notice), notice });
            }
          },
          onShards: (status) => {
            if (series.active) series.active.shards = status;
            if (runId !== null) emit({ type: "shards", runId, status });
          },
        };
        const summary = plan.cluster
          ? await runOnCluster(spec, plan.cluster, { secrets, store, name, tags }, hooks)
          : await runAndRecord(spec, secrets, hooks, { store, name, tags });
        if (!reported) await report(summary);
        // A server that did not answer again would keep each later mode a request timeout in
        // its checks before it failed to start: the series ends with the run that found it gone.
        const modesLeft = plan.specs.slice(index + 1).map((later) => later.mode);
        if (summary.serverGone && modesLeft.length > 0) {
          const notice: RunNotice = { code: "modesNotRun", params: { modes: modesLeft } };
          emit({ type: "notice", runId: summary.runId, message: noticeText(notice), notice });
          break;
        }
      } catch (error) {
        progress.cancel();
        if (reported) {
          // The run was reported and stored as measured; what failed after is its cleanup.
          if (runId !== null) {
            const notice: RunNotice = {
              code: "cleanupFailed",
              params: { reason: toApiError(error) },
            };
            emit({ type: "notice", runId, message: noticeText(notice), notice });
          }
          break;
        }
        if (runId === null) {
          // Failed before it started (a check of the endpoint): the first run's caller is told;
          // a later run's failure ends the series with a notice on the run before it.
          started.reject(error);
          const previous = series.runIds.at(-1);
          if (previous) {
            const notice: RunNotice = {
              code: "modeCouldNotStart",
              params: { mode: spec.mode, reason: toApiError(error) },
            };
            emit({ type: "notice", runId: previous, message: noticeText(notice), notice });
          }
        } else {
          emit(finished(runId, "failed", toApiError(error), place, series.runIds));
        }
        break;
      } finally {
        series.active = null;
        series.live = null;
      }
    }
  }

  return {
    async start(plan) {
      if (current?.cleaningUp) await current.done;
      if (current) {
        const what = current.active
          ? `"${current.active.name}" (run ${current.active.runId})`
          : "another experiment";
        return Promise.reject(
          new Error(`${what} is running; stop it or wait for it to finish before starting another`),
        );
      }
      const series: Series = {
        stop: new AbortController(),
        runIds: [],
        active: null,
        live: null,
        cleaningUp: false,
        done: Promise.resolve(),
      };
      current = series;
      return new Promise((resolve, reject) => {
        series.done = runSeries(plan, series, {
          resolve: (runId) => resolve({ runId }),
          reject,
        })
          .catch(reject)
          .finally(() => {
            if (current === series) current = null;
          });
      });
    },
    async stop(runId) {
      const series = current;
      if (!series?.runIds.includes(runId)) return;
      series.stop.abort();
      await series.done;
    },
    async retune(runId, change) {
      const live = current?.active?.runId === runId ? current.live : null;
      if (!live) {
        throw InputError.of(
          "runId",
          `run ${runId} is not a live session running now: only a live tail lab's knobs move while it runs`,
        );
      }
      return live.retune(change);
    },
    active() {
      const series = current;
      if (!series?.active) return null;
      const { live } = series;
      return live
        ? { ...series.active, tuning: live.tuning, markers: [...live.markers] }
        : series.active;
    },
    async close() {
      const series = current;
      if (!series) return;
      series.stop.abort();
      await series.done;
    },
  };
}

function finished(
  runId: string,
  status: "complete" | "stopped" | "serverLost" | "failed",
  error: ApiError | null,
  series: RunSeries,
  runIds: readonly string[],
): RunEvent {
  return { type: "finished", runId, status, error, series, seriesRunIds: [...runIds] };
}

/** What a run's cleanup could not remove, as a notice; null when it removed everything. */
function cleanupNotice(cleanup: RunCleanup): RunNotice | null {
  if (cleanupLeftNothing(cleanup)) return null;
  const [error = "unknown"] = Object.entries(cleanup.errorsByCode)
    .sort(([, a], [, b]) => b - a)
    .map(([code]) => code);
  return {
    code: "cleanupIncomplete",
    params: {
      objects: cleanup.objectsLeft,
      uploads: cleanup.uploadsLeft,
      buckets: cleanup.bucketsLeft.length,
      error,
    },
  };
}
