import { getCompileCacheDir } from "node:module";
import { extname } from "node:path";

/**
 * A worker thread's module beside this one, with this module's extension: `.ts` beside the
 * sources, `.cjs` beside a CommonJS bundle (the desktop app's, see electron/scripts/build.ts).
 */
export function engineWorkerUrl(name: "client-worker" | "schedule-pacer-worker"): URL {
  return new URL(`./${name}${extname(new URL(import.meta.url).pathname)}`, import.meta.url);
}

/**
 * A worker thread's environment: the process's, with the process's compile cache when it has
 * one (module.enableCompileCache, as the CLI does). A worker does not inherit it; without it,
 * each worker strips the types of every source file it loads again, with a type stripper of its
 * own that holds 18 MB for the worker's life.
 */
export function engineWorkerEnv(): NodeJS.ProcessEnv {
  const cacheDir = getCompileCacheDir();
  return cacheDir === undefined ? process.env : { ...process.env, NODE_COMPILE_CACHE: cacheDir };
}
