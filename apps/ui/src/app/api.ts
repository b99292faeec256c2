import {
  createApiClient,
  type ApiEnvelope,
  type ApiMethodName,
  type TailLabApi,
  type TailLabBridge,
} from "@taillab/api";

declare global {
  interface Window {
    /** Set by Electron's preload or by apps/web's bridge script before the UI loads. */
    taillab?: TailLabBridge;
  }
}

let client: { bridge: TailLabBridge; api: TailLabApi } | null = null;

/** The backend, whichever host provides it; failed calls throw AppError with their fields. */
export function api(): TailLabApi {
  const bridge = window.taillab;
  if (!bridge) {
    throw new Error("TailLab's backend is not connected: open the app through `pnpm start`");
  }
  if (client?.bridge !== bridge) client = { bridge, api: clientOf(bridge) };
  return client.api;
}

/**
 * Each bridge function takes the call's input only. (@taillab/api's clientOfBridge passes the
 * call's name as the input, so every call would fail validation; use it again once fixed.)
 */
function clientOf(bridge: TailLabBridge): TailLabApi {
  return createApiClient(
    (name, input) =>
      (bridge[name as ApiMethodName] as (input: unknown) => Promise<ApiEnvelope<unknown>>)(input),
    (listener) => bridge.onRunEvent(listener),
  );
}

/** False when the UI was opened without a host (e.g. the built files in a plain browser). */
export function hasBackend(): boolean {
  return window.taillab !== undefined;
}
