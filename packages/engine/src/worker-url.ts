import { extname } from "node:path";

/**
 * A worker thread's module beside this one, with this module's extension: `.ts` beside the
 * sources, `.cjs` beside a CommonJS bundle (the desktop app's, see electron/scripts/build.ts).
 */
export function engineWorkerUrl(name: "client-worker" | "schedule-pacer-worker"): URL {
  return new URL(`./${name}${extname(new URL(import.meta.url).pathname)}`, import.meta.url);
}
