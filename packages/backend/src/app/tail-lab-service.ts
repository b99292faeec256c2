import { coded, type RunEvent, type RunEventListener, type TailLabService } from "@taillab/api";
import { openResultsStore } from "@taillab/store";
import { join, resolve } from "node:path";
import { InputError, nestedFieldErrors } from "../input-error.ts";
import { cleanUpRun } from "../run-cleanup.ts";
import { loadRunReportInput } from "../run-report.ts";
import { openPrivateFolder } from "./data-folder.ts";
import { endpointKeys, keychainLookup } from "./endpoint-credentials.ts";
import { createBucketForInput, testEndpointInput } from "./endpoint-connection.ts";
import { openEndpointsStore } from "./endpoints-store.ts";
import { checkExperiment } from "./experiment-spec.ts";
import { previewExperiment } from "./experiment-preview.ts";
import { openExperimentsStore } from "./experiments-store.ts";
import { openKubernetesSettings } from "./kubernetes-settings.ts";
import { listLatencyProfiles } from "./latency-profiles.ts";
import { exportReport, requestsCsvFile, type RequestsCsvFile } from "./report-export.ts";
import { createRunManager } from "./run-manager.ts";
import { runOrigin } from "./run-origin.ts";
import type { SecretCipher } from "./secret-cipher.ts";
import { openSecretsFile } from "./secrets-file.ts";
import { createTestbedHost } from "./testbed-host.ts";

export interface TailLabServiceOptions {
  host: "electron" | "web";
  /** TailLab's version, for appInfo. */
  version: string;
  /** Where endpoints.json, experiments.json, secrets.json and kubernetes.json live (created if missing). */
  dataDir: string;
  resultsDir: string;
  /** How secrets are encrypted on disk: safeStorage in Electron, keyFileCipher elsewhere. */
  secretCipher: SecretCipher;
  /** For endpoints whose keys are environment variables. */
  env: Readonly<Record<string, string | undefined>>;
}

export type TailLabBackend = TailLabService & {
  /**
   * What the host should tell its user when it starts: saved secrets the key cannot open
   * (naming the key), a data folder that could not be made private.
   */
  readonly warnings: readonly string[];
  /**
   * A run's per-request CSV in chunks, for hosts that write it as it is read: too large for one
   * API answer (exportReport builds it whole), so it is no call of the contract.
   */
  requestsCsvFile(runId: string, options: { bom: boolean }): Promise<RequestsCsvFile>;
  /** Stops a run in progress (keeping what it measured) and the long-lived testbed. */
  close(): Promise<void>;
};

/** The files of the data folder. */
const DATA_FILES = {
  endpoints: "endpoints.json",
  experiments: "experiments.json",
  secrets: "secrets.json",
  kubernetes: "kubernetes.json",
} as const;

/**
 * The app contract, implemented once for every host: the desktop app calls it over IPC, the
 * browser host over HTTP and WebSocket. Inputs arrive already validated by the contract's schemas
 * (dispatchApiCall); what they cannot check (URLs, bucket names, specs against an endpoint) is
 * thrown as an InputError whose fields are named by their path in the call's input.
 */
export async function createTailLabService(
  options: TailLabServiceOptions,
): Promise<TailLabBackend> {
  const dataDir = resolve(options.dataDir);
  const folderWarning = await openPrivateFolder(dataDir);
  const secretsPath = join(dataDir, DATA_FILES.secrets);
  const secrets = await openSecretsFile(secretsPath, options.secretCipher);
  const endpoints = await openEndpointsStore(join(dataDir, DATA_FILES.endpoints), secrets);
  const warnings = [
    ...(folderWarning ? [folderWarning] : []),
    ...(secrets.unreadable.length > 0
      ? [
          unreadableSecretsWarning(
            secretsPath,
            secrets.unreadable.map((id) => endpoints.find(id)?.name ?? id),
            options.secretCipher.keySource,
          ),
        ]
      : []),
  ];
  const experiments = await openExperimentsStore(join(dataDir, DATA_FILES.experiments));
  const kubernetes = await openKubernetesSettings(join(dataDir, DATA_FILES.kubernetes));
  const store = await openResultsStore(options.resultsDir);
  const testbed = createTestbedHost();
  const { env } = options;

  const listeners = new Set<RunEventListener>();
  const emit = (event: RunEvent) => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch {
        // One host's broken listener must not stop the run or the other hosts' events.
      }
    }
  };
  // What runs resolve their credential references with: now, and when cleaning up after them.
  const runSecrets = { env, keychain: keychainLookup(endpoints.find, secrets.get) };
  const runs = createRunManager({ store, secrets: runSecrets, emit });

  return {
    warnings,
    appInfo: async () => ({
      version: options.version,
      host: options.host,
      resultsDir: store.dir,
      dataDir,
    }),

    listEndpoints: async () => endpoints.list(),
    addEndpoint: (draft) => endpoints.add(draft),
    updateEndpoint: ({ endpointId, draft }) => endpoints.update(endpointId, draft),
    removeEndpoint: ({ endpointId }) => endpoints.remove(endpointId),
    testConnection: (input) => testEndpointInput(input, { endpoints, secrets, env }),
    createBucket: (input) => createBucketForInput(input, { endpoints, secrets, env }),

    listExperiments: async () => experiments.list(),
    saveExperiment: ({ experimentId, draft }) => experiments.save(experimentId, draft),
    removeExperiment: ({ experimentId }) => experiments.remove(experimentId),
    previewExperiment: async (draft) => previewExperiment(draft, endpoints.find),

    async startRun({ experiment, name }) {
      const checked = checkExperiment(experiment, endpoints.find);
      if (!checked.ok) throw new InputError(nestedFieldErrors("experiment", checked.errors));
      const { endpoint, replicas, specs, points } = checked;
      const servers = [
        { field: "experiment.endpointId", server: endpoint },
        ...replicas.map((server, index) => ({
          field: `experiment.replicaEndpointIds[${index}]`,
          server,
        })),
      ];
      for (const { field, server } of servers) {
        const keys = endpointKeys(server.credentials, secrets.get(server.id), env);
        if (keys.kind === "unavailable") {
          throw InputError.of(
            field,
            coded("endpointSays", { name: server.name, problem: keys.reason }),
          );
        }
      }
      const generators = experiment.loadGenerators;
      return runs.start({
        name: name || experiment.name,
        specs,
        points,
        cluster:
          generators?.kind === "kubernetes"
            ? { shards: generators.shards, settings: kubernetes.get() }
            : null,
      });
    },
    stopRun: async ({ runId }) => {
      // A run that ended a moment ago is stopped already; an id the library never held is a
      // mistake to name, not one to ignore. The run going now may not be there yet: a
      // distributed run lands in the library only once merged.
      if (runs.active()?.runId !== runId) await store.requireRun(runId);
      await runs.stop(runId);
    },
    retuneRun: ({ runId, tuning }) => runs.retune(runId, tuning),
    activeRun: async () => runs.active(),

    listRuns: () => store.list(),
    getRun: ({ runId }) => loadRunReportInput(store, runId),
    runOrigin: async ({ runId }) =>
      runOrigin((await store.get(runId)).meta.spec, endpoints.list(), experiments.list()),
    renameRun: ({ runId, name }) => store.rename(runId, name),
    tagRun: ({ runId, tag }) => store.tag(runId, tag),
    untagRun: ({ runId, tag }) => store.untag(runId, tag),
    annotateRun: ({ runId, notes }) => store.annotate(runId, notes),
    removeRun: ({ runId }) => store.remove(runId),
    restoreRun: ({ runId }) => store.restore(runId),
    cleanupRun: ({ runId }) => cleanUpRun(store, runId, runSecrets),
    exportReport: (request) => exportReport(store, request),
    requestsCsvFile: (runId, options) => requestsCsvFile(store, runId, options),

    testbedStatus: async () => testbed.status(),
    startTestbed: (setup) => testbed.start(setup),
    stopTestbed: () => testbed.stop(),
    listLatencyProfiles: async () => listLatencyProfiles(),

    kubernetesSettings: async () => kubernetes.get(),
    saveKubernetesSettings: (settings) => kubernetes.save(settings),

    onRunEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      await runs.close();
      await testbed.stop();
      listeners.clear();
    },
  };
}

/** A changed key (file, passphrase or keychain), said at start and naming it. */
function unreadableSecretsWarning(path: string, names: string[], keySource: string): string {
  const endpoints = names.map((name) => `"${name}"`).join(", ");
  return `${path}: the saved secrets of ${names.length === 1 ? "endpoint" : "endpoints"} ${endpoints} cannot be decrypted with ${keySource}, which is not the key they were saved with — put the old key back, or edit ${names.length === 1 ? "that endpoint" : "those endpoints"} and enter ${names.length === 1 ? "its secret" : "their secrets"} again`;
}
