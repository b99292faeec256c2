import {
  API_METHOD_NAMES,
  type RunEvent,
  type RunEventListener,
  type TailLabService,
} from "@taillab/api";
import { vi } from "vitest";
import type { RequestsCsvSource } from "../requests-csv-route.ts";

/**
 * A TailLabService whose calls are spies: `appInfo` answers, every other call fails unless a
 * test gives it an implementation; `emit` sends a run event to the subscribed listeners.
 */
export function fakeService() {
  const listeners = new Set<RunEventListener>();
  const calls = Object.fromEntries(
    API_METHOD_NAMES.map((name) => [
      name,
      vi.fn(async (): Promise<unknown> => {
        throw new Error(`the fake service has no ${name}`);
      }),
    ]),
  );
  calls.appInfo = vi.fn(async () => ({
    version: "0.1.0-test",
    host: "web",
    resultsDir: "/results",
    dataDir: "/data",
  }));
  const service = {
    ...calls,
    requestsCsvFile: vi.fn(async () => {
      throw new Error("the fake service has no requestsCsvFile");
    }),
    onRunEvent(listener: RunEventListener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } as unknown as TailLabService & RequestsCsvSource;
  return {
    service,
    calls,
    listenerCount: () => listeners.size,
    emit(event: RunEvent) {
      for (const listener of listeners) listener(event);
    },
  };
}
