import { homedir } from "node:os";
import { join, win32 } from "node:path";

export interface ResultsDirContext {
  env: Readonly<Record<string, string | undefined>>;
  platform: NodeJS.Platform;
  home: string;
}

/**
 * Where runs are kept unless the caller names a folder: TAILLAB_RESULTS_DIR when set, else the
 * operating system's per-user data folder for TailLab (the CLI's `--results DIR` goes on top).
 *   Linux and others: $XDG_DATA_HOME/taillab/runs, or ~/.local/share/taillab/runs
 *   macOS:            ~/Library/Application Support/TailLab/runs
 *   Windows:          %APPDATA%\TailLab\runs
 */
export function defaultResultsDir(
  context: ResultsDirContext = { env: process.env, platform: process.platform, home: homedir() },
): string {
  const { env, platform, home } = context;
  const override = env.TAILLAB_RESULTS_DIR;
  if (override) return override;
  if (platform === "win32") {
    const appData = env.APPDATA || win32.join(home, "AppData", "Roaming");
    return win32.join(appData, "TailLab", "runs");
  }
  if (platform === "darwin") return join(home, "Library", "Application Support", "TailLab", "runs");
  // XDG says a relative XDG_DATA_HOME is invalid and must be ignored.
  const xdgDataHome = env.XDG_DATA_HOME?.startsWith("/") ? env.XDG_DATA_HOME : null;
  return join(xdgDataHome ?? join(home, ".local", "share"), "taillab", "runs");
}
