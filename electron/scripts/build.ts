/**
 * `pnpm build:electron`: the desktop app's CommonJS bundles in electron/dist (or `--outdir`):
 * - main.cjs, the main process. It leaves out `electron` and requires @taillab/backend as
 *   ./backend.cjs beside it (see src/main.ts).
 * - backend.cjs, @taillab/backend with everything it imports: a package holds no TypeScript
 *   sources to load (Node does not strip types under node_modules or in an asar).
 * - client-worker.cjs and schedule-pacer-worker.cjs, the engine's worker threads, which the
 *   engine starts from beside its own file (packages/engine/src/worker-url.ts). A worker cannot
 *   load from inside the asar, so electron-builder.yml unpacks them (`asarUnpack`) and the
 *   bundles look for them there.
 * - preload.cjs. It runs sandboxed, where `require` knows only `electron`, so it carries its
 *   imports (@taillab/api) inside.
 * - fonts/, the CJK font a Chinese HTML report carries, beside backend.cjs
 *   (packages/backend/src/cjk-font-files.ts), unpacked from the asar as the workers are.
 */
import { cp } from "node:fs/promises";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import { build, type BuildOptions, type Plugin } from "esbuild";

const root = join(import.meta.dirname, "..");
const { values } = parseArgs({ options: { outdir: { type: "string" } } });
const outdir = values.outdir ?? join(root, "dist");
const started = performance.now();

const common: BuildOptions = {
  bundle: true,
  format: "cjs",
  sourcemap: true,
  minify: true,
  logLevel: "warning",
  external: ["electron"],
};

/**
 * CommonJS has no `import.meta`. In these bundles `import.meta.url` is the bundle's own file
 * URL, computed from __filename — inside a package, its place in app.asar.unpacked, where
 * `asarUnpack` puts the files that must be real files (the worker).
 */
const IMPORT_META_URL = "__taillab_import_meta_url";
const nodeBundle: BuildOptions = {
  ...common,
  platform: "node",
  target: "node22",
  // Function and class names stay as written, so stack traces in the app's output stay readable.
  keepNames: true,
  define: { "import.meta.url": IMPORT_META_URL },
  banner: {
    js: `var ${IMPORT_META_URL}=require("node:url").pathToFileURL(__filename.replace(/\\.asar(?=[\\\\/])/,".asar.unpacked")).href;`,
  },
};

/** The engine's worker threads, each a bundle of its own beside backend.cjs. */
const ENGINE_WORKERS = ["client-worker", "schedule-pacer-worker"] as const;

/** main.cjs's `import("@taillab/backend")` becomes `require("./backend.cjs")`. */
const backendBesideMain: Plugin = {
  name: "backend-beside-main",
  setup(plugins) {
    plugins.onResolve({ filter: /^@taillab\/backend$/ }, () => ({
      path: "./backend.cjs",
      external: true,
    }));
  },
};

await Promise.all([
  build({
    ...nodeBundle,
    entryPoints: [join(root, "src", "main.ts")],
    outfile: join(outdir, "main.cjs"),
    plugins: [backendBesideMain],
    // A dynamic import becomes require(), which reads from the asar like any other file.
    supported: { "dynamic-import": false },
  }),
  build({
    ...nodeBundle,
    entryPoints: [join(root, "..", "packages", "backend", "src", "index.ts")],
    outfile: join(outdir, "backend.cjs"),
  }),
  ...ENGINE_WORKERS.map((name) =>
    build({
      ...nodeBundle,
      entryPoints: [join(root, "..", "packages", "engine", "src", `${name}.ts`)],
      outfile: join(outdir, `${name}.cjs`),
    }),
  ),
  build({
    ...common,
    entryPoints: [join(root, "src", "preload.ts")],
    outfile: join(outdir, "preload.cjs"),
    // Chromium's renderer with the sandboxed preload's `require`: no Node built-ins.
    platform: "browser",
    target: "chrome130",
  }),
  cp(join(root, "..", "assets", "fonts"), join(outdir, "fonts"), { recursive: true }),
]);

process.stdout.write(
  `built ${relative(process.cwd(), outdir) || "."}/main.cjs, backend.cjs, ${ENGINE_WORKERS.map((name) => `${name}.cjs`).join(", ")} and preload.cjs in ${Math.round(performance.now() - started)} ms\n`,
);
