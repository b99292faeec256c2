/**
 * `pnpm build:cli`: the `taillab` command as one ES module bundle in apps/cli/dist (or
 * `--outdir`), for the container image of distributed runs (Containerfile):
 * - taillab.mjs, the CLI with everything it imports (Node's own modules aside);
 * - client-worker.mjs and schedule-pacer-worker.mjs, the engine's worker threads, which the
 *   engine starts from beside its own file (packages/engine/src/worker-url.ts);
 * - fonts/, the CJK font a Chinese HTML report carries (packages/backend/src/cjk-font-files.ts).
 * `node taillab.mjs …` then needs nothing but Node ≥ 22.
 */
import { cp } from "node:fs/promises";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import { build, type BuildOptions, type Plugin } from "esbuild";

const root = join(import.meta.dirname, "..");
const { values } = parseArgs({ options: { outdir: { type: "string" } } });
const outdir = values.outdir ?? join(root, "apps", "cli", "dist");
const started = performance.now();

const ENGINE_WORKERS = ["client-worker", "schedule-pacer-worker"] as const;

/**
 * `require("punycode")` means the npm package where a dependency has one beside it (ajv's
 * formats do), as Node resolves it at run time; a bundle would take Node's deprecated built-in.
 */
const userlandPunycode: Plugin = {
  name: "userland-punycode",
  setup(plugins) {
    plugins.onResolve({ filter: /^punycode$/ }, ({ resolveDir }) => {
      try {
        return { path: createRequire(join(resolveDir, "x")).resolve("punycode/") };
      } catch {
        return undefined;
      }
    });
  },
};

const common: BuildOptions = {
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node22",
  sourcemap: true,
  minify: true,
  // Function and class names stay as written, so stack traces stay readable.
  keepNames: true,
  logLevel: "warning",
  plugins: [userlandPunycode],
  // Some dependencies are CommonJS that require() Node's modules: an ES module has no require.
  banner: {
    js: 'import { createRequire as __taillabRequire } from "node:module"; const require = __taillabRequire(import.meta.url);',
  },
};

await Promise.all([
  build({
    ...common,
    entryPoints: [join(root, "apps", "cli", "src", "main.ts")],
    outfile: join(outdir, "taillab.mjs"),
  }),
  ...ENGINE_WORKERS.map((name) =>
    build({
      ...common,
      entryPoints: [join(root, "packages", "engine", "src", `${name}.ts`)],
      outfile: join(outdir, `${name}.mjs`),
    }),
  ),
  cp(join(root, "assets", "fonts"), join(outdir, "fonts"), { recursive: true }),
]);

process.stdout.write(
  `built ${relative(process.cwd(), outdir) || "."}/taillab.mjs, ${ENGINE_WORKERS.map((name) => `${name}.mjs`).join(" and ")} in ${Math.round(performance.now() - started)} ms\n`,
);
