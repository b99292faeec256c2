import type { TailLabApi } from "@taillab/api";

declare global {
  interface Window {
    /** The app's backend in the page (apps/web's bridge), for tests that drive it directly. */
    taillab?: TailLabApi;
  }
}
