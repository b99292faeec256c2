/**
 * `pnpm start`: TailLab on this machine, the quickest way there is. The desktop app when an
 * Electron binary can open a window here, else the browser host, whose URL it prints. The UI
 * (and the Electron bundles) are rebuilt first when their sources are newer than the build.
 * Prints how long each step took, up to a usable window or page.
 *
 *   pnpm start [--web] [-- web host flags, e.g. --port 8080]
 */
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import {
  electronUnavailableReason,
  findElectronBinary,
} from "../electron/scripts/electron-binary.ts";

const root = join(import.meta.dirname, "..");
const began = performance.now();
const elapsed = () => `${Math.round(performance.now() - began)} ms`;
const say = (line: string) => process.stdout.write(`start: ${line}\n`);

/** The newest modification time of any file under `paths`, `dist` and `node_modules` aside. */
function newestSource(paths: string[]): number {
  let newest = 0;
  const visit = (path: string) => {
    const info = statSync(path, { throwIfNoEntry: false });
    if (!info) return;
    if (!info.isDirectory()) {
      newest = Math.max(newest, info.mtimeMs);
      return;
    }
    for (const entry of readdirSync(path)) {
      if (entry !== "node_modules" && entry !== "dist") visit(join(path, entry));
    }
  };
  paths.forEach((path) => visit(join(root, path)));
  return newest;
}

/** Runs `output`'s build when `output` is missing or older than the newest of `sources`. */
function buildIfStale(name: string, output: string, sources: string[], command: string[]): void {
  const built = statSync(join(root, output), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (built >= newestSource(sources)) return;
  const stepBegan = performance.now();
  say(`building ${name} (${built === 0 ? "no build yet" : "sources changed"})…`);
  const [program, ...args] = command as [string, ...string[]];
  const result = spawnSync(program, args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) {
    say(`building ${name} failed; see above`);
    process.exit(result.status ?? 1);
  }
  say(`built ${name} in ${Math.round(performance.now() - stepBegan)} ms`);
}

// The UI's own sources and the pure packages it bundles.
const UI_SOURCES = [
  "apps/ui/src",
  "apps/ui/index.html",
  "apps/ui/vite.config.ts",
  "apps/ui/package.json",
  "packages/api/src",
  "packages/core/src",
  "packages/report/src",
];
// The main process and the preload, and the backend with what it imports (bundled beside them).
const ELECTRON_SOURCES = [
  "electron/src",
  "electron/scripts/build.ts",
  ...["api", "core", "engine", "store", "report", "testbed", "backend"].map(
    (name) => `packages/${name}/src`,
  ),
  "package.json",
];

/** Runs the host, echoing its output; the line that says it is ready gets the total time. */
function runHost(program: string, args: string[], readyLine: RegExp): void {
  const child = spawn(program, args, { cwd: root, stdio: ["inherit", "pipe", "inherit"] });
  createInterface({ input: child.stdout }).on("line", (line) => {
    process.stdout.write(`${line}\n`);
    if (readyLine.test(line))
      say(`usable ${elapsed()} after start (pnpm's own start-up not counted)`);
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => child.kill(signal));
  }
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

// pnpm passes a `--` on: `pnpm start -- --web` must choose the browser host too.
const args = process.argv.slice(2).filter((arg) => arg !== "--");
const forceWeb = args[0] === "--web";
const hostArgs = forceWeb ? args.slice(1) : args;

buildIfStale("the UI", "apps/ui/dist/index.html", UI_SOURCES, [
  "pnpm",
  "--filter",
  "@taillab/ui",
  "build",
]);

const binary = forceWeb ? null : findElectronBinary();
const unavailable = forceWeb ? "--web was given" : electronUnavailableReason(binary);
if (binary !== null && unavailable === null) {
  buildIfStale("the Electron bundles", "electron/dist/main.cjs", ELECTRON_SOURCES, [
    process.execPath,
    "electron/scripts/build.ts",
  ]);
  say(`opening the desktop app (${elapsed()})`);
  runHost(binary, [join(root, "electron"), ...hostArgs], /^TailLab window is ready/);
} else {
  say(`using the browser host: ${unavailable}`);
  runHost(process.execPath, ["apps/web/src/main.ts", ...hostArgs], /^TailLab is running at /);
}
