import type { RunSummary } from "@taillab/api";
import { encodedHistogramsOf, intervalLogLines } from "@taillab/core";
import type { ResultsStore, RunWriter } from "@taillab/store";
import type { SecretSources } from "./credentials.ts";
import { captureEnvironment } from "./run-environment.ts";
import { runBenchmark, type RunHooks } from "./run-benchmark.ts";

export interface RecordingOptions {
  store: ResultsStore;
  /** Default: the spec's name, else "run <id>". */
  name?: string;
  /** e.g. the series a run belongs to. */
  tags?: string[];
}

/**
 * runBenchmark, with everything it measures written through the results store as it goes:
 * records streamed, percentiles over time second by second, histograms per phase, and the summary
 * (with the run's status) as soon as the measuring ends; the cleanup that follows is kept in
 * run.json, first as pending (its kinds unchecked), then as done. A run that fails is marked failed; a write the store cannot make (a
 * full disk) stops the run and keeps what was written.
 */
export async function runAndRecord(
  input: unknown,
  secrets: SecretSources,
  hooks: RunHooks,
  { store, name, tags }: RecordingOptions,
): Promise<RunSummary> {
  const stop = new AbortController();
  const onHostStop = () => stop.abort();
  hooks.signal?.addEventListener("abort", onHostStop, { once: true });
  let writer: RunWriter | null = null;
  let storeError: Error | null = null;
  const histogramWrites: Promise<void>[] = [];
  try {
    const summary = await runBenchmark(input, secrets, {
      ...hooks,
      signal: stop.signal,
      onRunStart: async (start) => {
        writer = await store.createRun({
          id: start.runId,
          name: name ?? start.spec.name ?? `run ${start.runId}`,
          spec: start.spec,
          environment: captureEnvironment(start.server),
          keyPrefix: start.keyPrefix,
          runStartEpochMs: start.runStartEpochMs,
          ...(tags ? { tags } : {}),
          onError: (error) => {
            storeError = error;
            stop.abort();
          },
        });
        await hooks.onRunStart?.(start);
      },
      onMeasured: async (summary, pendingCleanup) => {
        const open = writer as RunWriter | null;
        if (open && pendingCleanup) await store.recordCleanup(open.id, pendingCleanup);
        await Promise.all(histogramWrites);
        if (storeError) throw storeError;
        await open?.finish(summary);
        await hooks.onMeasured?.(summary, pendingCleanup);
      },
      onCleanup: async (cleanup) => {
        try {
          if (writer) await store.recordCleanup(writer.id, cleanup);
        } finally {
          // The host hears what was removed even when the disk could not keep it.
          await hooks.onCleanup?.(cleanup);
        }
      },
      onRecords: (pointIndex, records) => {
        writer?.appendRecords(pointIndex, records);
        hooks.onRecords?.(pointIndex, records);
      },
      onIntervals: (pointIndex, op, intervals) => {
        writer?.addIntervals(intervalLogLines(pointIndex, op, intervals));
        hooks.onIntervals?.(pointIndex, op, intervals);
      },
      onPhaseDone: (pointIndex, phase) => {
        const { op } = phase.shape;
        if (writer) {
          // Its seconds were written as they went (onIntervals).
          histogramWrites.push(
            writer.addPhase({ pointIndex, op, ...encodedHistogramsOf(phase.account) }, []),
          );
        }
        hooks.onPhaseDone?.(pointIndex, phase);
      },
    });
    return summary;
  } catch (error) {
    const failed = writer as RunWriter | null;
    if (failed && !storeError)
      await failed.fail(error instanceof Error ? error.message : String(error));
    throw error;
  } finally {
    hooks.signal?.removeEventListener("abort", onHostStop);
  }
}
