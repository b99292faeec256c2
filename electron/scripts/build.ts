/**
 * `pnpm build:electron`: the main process and the preload as CommonJS bundles in electron/dist.
 * The preload runs sandboxed, where `require` knows only `electron`, so it carries its imports
 * (@taillab/api) inside. The main process leaves out `electron` and @taillab/backend, which it
 * loads at run time (see src/main.ts).
 */
import { join } from "node:path";
import { build, type BuildOptions } from "esbuild";

const root = join(import.meta.dirname, "..");
const started = performance.now();

const common: BuildOptions = {
  bundle: true,
  format: "cjs",
  sourcemap: true,
  minify: true,
  logLevel: "warning",
  external: ["electron"],
};

await Promise.all([
  build({
    ...common,
    entryPoints: [join(root, "src", "main.ts")],
    outfile: join(root, "dist", "main.cjs"),
    platform: "node",
    target: "node22",
    external: ["electron", "@taillab/backend"],
  }),
  build({
    ...common,
    entryPoints: [join(root, "src", "preload.ts")],
    outfile: join(root, "dist", "preload.cjs"),
    // Chromium's renderer with the sandboxed preload's `require`: no Node built-ins.
    platform: "browser",
    target: "chrome130",
  }),
]);

process.stdout.write(
  `built electron/dist/main.cjs and preload.cjs in ${Math.round(performance.now() - started)} ms\n`,
);
