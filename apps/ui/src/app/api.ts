import {
  clientOfBridge,
  type TailLabApi,
  type TailLabBridge,
  type TailLabFilesBridge,
} from "@taillab/api";

declare global {
  interface Window {
    /**
     * Set before the UI loads by Electron's preload or by apps/web's bridge script: each call
     * answers an `{ ok, result | error }` envelope; `api()` turns it into the typed client.
     */
    taillab?: TailLabBridge;
    /** Electron's preload only: files the main process writes where the user chooses. */
    taillabFiles?: TailLabFilesBridge;
  }
}

let client: { bridge: TailLabBridge; api: TailLabApi } | null = null;

/** The backend, whichever host provides it; failed calls throw AppError with their fields. */
export function api(): TailLabApi {
  const bridge = window.taillab;
  if (!bridge) {
    throw new Error("TailLab's backend is not connected: open the app through `pnpm start`");
  }
  if (client?.bridge !== bridge) client = { bridge, api: clientOfBridge(bridge) };
  return client.api;
}

/** False when the UI was opened without a host (e.g. the built files in a plain browser). */
export function hasBackend(): boolean {
  return window.taillab !== undefined;
}
