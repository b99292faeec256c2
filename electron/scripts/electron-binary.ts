import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * The Electron executable the `electron` package downloaded, or null. Read from the package's
 * files rather than by requiring it: its index.js starts a download when the binary is missing,
 * which on a machine without network access only fails slowly.
 */
export function findElectronBinary(): string | null {
  let packageDir: string;
  try {
    packageDir = dirname(createRequire(import.meta.url).resolve("electron/package.json"));
  } catch {
    return null; // not installed at all (e.g. an install without devDependencies)
  }
  const pathFile = join(packageDir, "path.txt");
  if (!existsSync(pathFile)) return null;
  const binary = join(packageDir, "dist", readFileSync(pathFile, "utf8").trim());
  return existsSync(binary) ? binary : null;
}

/** Why Electron cannot open a window here, or null when it can. */
export function electronUnavailableReason(binary: string | null): string | null {
  if (binary === null) {
    return "the Electron binary is not installed (the electron package's download was skipped)";
  }
  if (process.platform === "linux" && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return "there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set)";
  }
  // Loads the binary's shared libraries without opening a window: a missing one shows here.
  const probe = spawnSync(binary, ["--version"], {
    encoding: "utf8",
    timeout: 15_000,
    env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" },
  });
  if (probe.status !== 0) {
    const detail = (probe.stderr || probe.error?.message || "").trim().split("\n")[0];
    return `the Electron binary does not run here (${detail || `exit ${probe.status}`})`;
  }
  return null;
}
