/**
 * The names of the app's calls, without their schemas: what a preload or a browser bridge needs,
 * so their bundles stay free of zod. app-api.ts pairs each name with its schemas.
 */
export const API_METHOD_NAMES = [
  "appInfo",
  "listEndpoints",
  "addEndpoint",
  "updateEndpoint",
  "removeEndpoint",
  "testConnection",
  "createBucket",
  "listExperiments",
  "saveExperiment",
  "removeExperiment",
  "previewExperiment",
  "startRun",
  "stopRun",
  "activeRun",
  "retuneRun",
  "listRuns",
  "getRun",
  "runOrigin",
  "renameRun",
  "tagRun",
  "untagRun",
  "annotateRun",
  "removeRun",
  "restoreRun",
  "cleanupRun",
  "exportReport",
  "testbedStatus",
  "startTestbed",
  "stopTestbed",
  "listLatencyProfiles",
  "kubernetesSettings",
  "saveKubernetesSettings",
] as const;

export type ApiMethodName = (typeof API_METHOD_NAMES)[number];

const NAMES: ReadonlySet<string> = new Set(API_METHOD_NAMES);

export function isApiMethodName(name: string): name is ApiMethodName {
  return NAMES.has(name);
}

/** The IPC channel of a call, and the one channel run events arrive on. */
export const ipcChannel = (name: ApiMethodName) => `taillab:${name}` as const;
export const RUN_EVENT_CHANNEL = "taillab:run-event";
