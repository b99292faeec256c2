import {
  AppError,
  createBridge,
  toApiError,
  type ApiMethodName,
  type RunEvent,
  type RunEventListener,
  type TailLabApi,
  type TailLabBridge,
} from "@taillab/api";
import { vi } from "vitest";

export type FakeTailLab = TailLabApi & {
  /** Delivers a run event to every listener, as a host would. */
  emit(event: RunEvent): void;
  listenerCount(): number;
};

/**
 * A `window.taillab` for unit tests: every call is a vi.fn answering something empty unless the
 * test passes its own, and run events are pushed with `emit`.
 */
export function installFakeTailLab(overrides: Partial<TailLabApi> = {}): FakeTailLab {
  const listeners = new Set<RunEventListener>();
  const fake = {
    appInfo: vi.fn(async () => ({ version: "0.0.0", host: "web", resultsDir: "", dataDir: "" })),
    listEndpoints: vi.fn(async () => []),
    addEndpoint: vi.fn(),
    updateEndpoint: vi.fn(),
    removeEndpoint: vi.fn(async () => undefined),
    testConnection: vi.fn(),
    createBucket: vi.fn(),
    listExperiments: vi.fn(async () => []),
    saveExperiment: vi.fn(),
    removeExperiment: vi.fn(async () => undefined),
    previewExperiment: vi.fn(async () => ({
      ok: true,
      points: [],
      requestCount: 0,
      durationMs: null,
    })),
    startRun: vi.fn(async () => ({ runId: "run-1" })),
    stopRun: vi.fn(async () => undefined),
    activeRun: vi.fn(async () => null),
    retuneRun: vi.fn(),
    listRuns: vi.fn(async () => []),
    getRun: vi.fn(),
    runOrigin: vi.fn(async () => ({ endpointId: null, experimentId: null })),
    renameRun: vi.fn(),
    tagRun: vi.fn(),
    untagRun: vi.fn(),
    annotateRun: vi.fn(),
    removeRun: vi.fn(),
    restoreRun: vi.fn(),
    cleanupRun: vi.fn(),
    exportReport: vi.fn(),
    testbedStatus: vi.fn(),
    startTestbed: vi.fn(),
    stopTestbed: vi.fn(),
    listLatencyProfiles: vi.fn(async () => [
      { name: "fast", summary: "no added delay" },
      { name: "steady", summary: "lognormal, median 5 ms" },
    ]),
    kubernetesSettings: vi.fn(async () => ({
      kubeconfig: "",
      context: "",
      namespace: "",
      image: "",
    })),
    saveKubernetesSettings: vi.fn(async (settings) => settings),
    ...overrides,
    onRunEvent(listener: RunEventListener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(event: RunEvent) {
      for (const listener of listeners) listener(event);
    },
    listenerCount: () => listeners.size,
  } as FakeTailLab;
  window.taillab = bridgeOf(fake);
  return fake;
}

/** The fake as a host exposes it: each call answers an envelope, as over IPC or HTTP. */
function bridgeOf(fake: FakeTailLab): TailLabBridge {
  return createBridge(
    async (name, input) => {
      try {
        const call = fake[name as ApiMethodName] as (value: unknown) => Promise<unknown>;
        return { ok: true, result: await call(input) };
      } catch (error) {
        const fields = error instanceof AppError ? error.fields : undefined;
        return { ok: false, error: { ...toApiError(error), ...(fields ? { fields } : {}) } };
      }
    },
    (listener) => fake.onRunEvent(listener),
  );
}
