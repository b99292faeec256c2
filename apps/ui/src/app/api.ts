import type { TailLabApi } from "@taillab/api";

declare global {
  interface Window {
    /** Set by Electron's preload or by apps/web's bridge script before the UI loads. */
    taillab?: TailLabApi;
  }
}

/** The backend, whichever host provides it. */
export function api(): TailLabApi {
  if (!window.taillab) {
    throw new Error("TailLab's backend is not connected: open the app through `pnpm start`");
  }
  return window.taillab;
}
