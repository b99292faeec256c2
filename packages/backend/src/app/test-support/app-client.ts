import {
  AppError,
  createApiClient,
  dispatchApiCall,
  type Experiment,
  type ExperimentDraftInput,
  type RunEvent,
  type TailLabApi,
} from "@taillab/api";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { passphraseCipher, type SecretCipher } from "../secret-cipher.ts";
import { createTailLabService, type TailLabBackend } from "../tail-lab-service.ts";

/**
 * The service as a host serves it: every call through dispatchApiCall (the contract's input
 * schemas, errors as envelopes) and back through the UI's client, in fresh temporary folders.
 */
export interface AppClient {
  api: TailLabApi;
  service: TailLabBackend;
  dataDir: string;
  resultsDir: string;
  /** Every run event since the client started. */
  events: RunEvent[];
  /** Resolves with the first event (from now on) that `match` accepts. */
  nextEvent<T extends RunEvent>(match: (event: RunEvent) => event is T): Promise<T>;
  close(): Promise<void>;
}

export async function startAppClient(
  options: { env?: Record<string, string>; dataDir?: string; secretCipher?: SecretCipher } = {},
): Promise<AppClient> {
  const root = await mkdtemp(join(tmpdir(), "taillab-app-"));
  const dataDir = options.dataDir ?? join(root, "data");
  const resultsDir = join(root, "results");
  const service = await createTailLabService({
    host: "web",
    version: "0.0.0-test",
    dataDir,
    resultsDir,
    secretCipher: options.secretCipher ?? passphraseCipher("test passphrase"),
    env: options.env ?? {},
  }).catch(async (error: unknown) => {
    await rm(root, { recursive: true, force: true });
    throw error;
  });
  const events: RunEvent[] = [];
  const waiters = new Set<(event: RunEvent) => void>();
  service.onRunEvent((event) => {
    events.push(event);
    for (const waiter of waiters) waiter(event);
  });
  const api = createApiClient(
    (name, input) => dispatchApiCall(service, name, input),
    (listener) => service.onRunEvent(listener),
  );
  return {
    api,
    service,
    dataDir,
    resultsDir,
    events,
    nextEvent: (match) =>
      new Promise((resolve) => {
        const waiter = (event: RunEvent) => {
          if (!match(event)) return;
          waiters.delete(waiter);
          resolve(event);
        };
        waiters.add(waiter);
      }),
    async close() {
      await service.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** The AppError a call failed with (its message and fields), or a test failure if it did not. */
export async function failureOf(call: Promise<unknown>): Promise<AppError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

export const isFinished = (event: RunEvent): event is Extract<RunEvent, { type: "finished" }> =>
  event.type === "finished";
export const isStarted = (event: RunEvent): event is Extract<RunEvent, { type: "started" }> =>
  event.type === "started";

/** A saved experiment as the draft a call takes (a draft refuses the fields a draft has not). */
export function draftOf({
  name,
  description,
  endpointId,
  spec,
  modes,
}: Experiment): ExperimentDraftInput {
  return { name, description, endpointId, spec, ...(modes ? { modes } : {}) };
}

/** Runs a built-in's series of modes to its end: its runs' ids. */
export async function runSeries(app: AppClient, experiment: Experiment): Promise<string[]> {
  const count = experiment.modes?.length ?? 1;
  let finishedRuns = 0;
  const series = new Promise<string[]>((resolve) => {
    app.service.onRunEvent((event) => {
      if (event.type === "finished" && ++finishedRuns === count) resolve(event.seriesRunIds);
    });
  });
  await app.api.startRun({ experiment: draftOf(experiment) });
  return series;
}
