import type { NotRunPhase, RunNotice, RunSpec, ServerGone, ServerLoss } from "@taillab/api";
import { ABORTED_ERROR } from "@taillab/api";
import { summaryOperations } from "@taillab/core";
import type { ControlPlane, EngineServerLoss } from "@taillab/engine";

/**
 * What a run does once its server stopped answering: each phase that ended early for it is kept
 * (and said), and the server is asked once, with a short deadline, whether it answers; before
 * anything more is sent — the point's next phase, the next repetition or point, the cleanup —
 * the run waits for that answer. No answer ends the run there: a dead server costs one request
 * timeout and one probe, not one timeout per phase, point and cleanup batch. The probe leaves as
 * the silence is found, while the phase winds down, so that wind-down costs nothing more.
 */
export interface SilenceWatch {
  /**
   * A phase ended early: kept and said, and the probe is sent (the next serverAnswers() waits
   * for it) unless `nothingFollows`: the run ends after this phase anyway, so it asks nothing.
   */
  lost(pointIndex: number, phase: string, loss: EngineServerLoss, nothingFollows?: boolean): void;
  /**
   * Whether to go on: true while no silence is waiting for its probe; else the probe's answer,
   * whose verdict is kept (a stop during it goes on: the stop ends the run anyway).
   */
  serverAnswers(): Promise<boolean>;
  /** Once the run has ended for a gone server: the phases it did not run, kept and said. */
  endRun(notRun: readonly NotRunPhase[]): void;
  readonly losses: readonly ServerLoss[];
  /** Set once the probe got no answer. */
  readonly gone: ServerGone | null;
  /**
   * The code a cleanup takes as the server's answer without asking it anything: the probe's
   * when the server is gone; the silence's last when a stop cut the probe short (whoever stopped
   * the run would otherwise wait a request timeout for a server last seen silent). Null while
   * the server answers.
   */
  readonly silentServer: string | null;
}

export function createSilenceWatch(
  controlPlane: Pick<ControlPlane, "probe" | "probeTimeoutMs">,
  runStartEpochMs: number,
  {
    keyPrefix,
    say,
    signal,
  }: { keyPrefix: string; say: (notice: RunNotice) => void; signal?: AbortSignal },
): SilenceWatch {
  const losses: ServerLoss[] = [];
  let probing: Promise<string | null> | null = null;
  let gone: ServerGone | null = null;
  let stoppedInSilence: string | null = null;
  const runMs = () => Date.now() - runStartEpochMs;
  return {
    get losses() {
      return losses;
    },
    get gone() {
      return gone;
    },
    get silentServer() {
      return gone?.probeError ?? stoppedInSilence;
    },
    lost(pointIndex, phase, { sinceMs, atMs, failures, lastError }, nothingFollows = false) {
      const silentMs = atMs - sinceMs;
      const at = new Date(runStartEpochMs + sinceMs).toISOString();
      losses.push({ pointIndex, phase, at, sinceMs, silentMs, failures, lastError });
      const params = { runStartEpochMs, sinceMs, silentMs, failures, lastError, phase };
      say({ code: "serverLost", params });
      if (probing || gone || nothingFollows) return;
      const deadlineMs = runMs() + controlPlane.probeTimeoutMs;
      say({ code: "serverProbe", params: { runStartEpochMs, deadlineMs } });
      probing = controlPlane.probe(keyPrefix, signal);
    },
    async serverAnswers() {
      if (gone) return false;
      if (!probing) return true;
      const probeError = await probing;
      probing = null;
      const last = losses.at(-1);
      if (probeError === ABORTED_ERROR) {
        // A stop during the probe ends the run anyway; it is not the server's verdict.
        stoppedInSilence = last?.lastError ?? probeError;
        return true;
      }
      if (probeError === null) {
        say({ code: "serverBack", params: {} });
        return true;
      }
      const sinceMs = last?.sinceMs ?? 0;
      const at = last?.at ?? new Date(runStartEpochMs).toISOString();
      gone = { at, sinceMs, probeError, notRun: [] };
      return false;
    },
    endRun(notRun) {
      if (!gone) return;
      gone.notRun = [...notRun];
      const [first] = notRun;
      const ofPoint = notRun.filter((phase) => phase.pointIndex === first?.pointIndex);
      // The phases of the repetition the server went in; later repetitions are counted.
      const phases = ofPoint.filter((phase) => phase.repetition === first?.repetition);
      const repetitions = new Set(ofPoint.map((phase) => phase.repetition)).size - 1;
      const points = new Set(notRun.map((phase) => phase.pointIndex));
      if (first) points.delete(first.pointIndex);
      say({
        code: "serverGone",
        params: {
          probeError: gone.probeError,
          phases: phases.map((phase) => phase.phase),
          ...(repetitions > 0 ? { repetitions } : {}),
          points: points.size,
        },
      });
    },
  };
}

/** The phases a point runs, by operation ("mix" for a mixed workload). */
export function phasesOfPoint(spec: RunSpec): string[] {
  return spec.workload ? ["mix"] : summaryOperations(spec);
}
