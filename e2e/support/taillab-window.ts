import type { TailLabBridge } from "@taillab/api";

declare global {
  interface Window {
    /** The app's backend in the page (apps/web's bridge, answering envelopes), for tests that drive it directly. */
    taillab?: TailLabBridge;
  }
}
