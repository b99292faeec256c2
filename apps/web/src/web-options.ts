import { homedir } from "node:os";
import { join, posix, resolve, win32 } from "node:path";
import { parseArgs } from "node:util";
import { defaultResultsDir } from "@taillab/backend";

export const WEB_HELP = `Usage: node apps/web/src/main.ts [--port N] [--data-dir DIR] [--results DIR] [--ui-dir DIR]

Serves TailLab's UI and backend to a browser on 127.0.0.1, for one launch token.

  --port N          port on 127.0.0.1 (default: a free one)
  --data-dir DIR    saved endpoints, experiments and encrypted secrets
                    (default: the user's TailLab data folder)
  --results DIR     the results library (default: TAILLAB_RESULTS_DIR or <data folder>/runs)
  --ui-dir DIR      a build of apps/ui (default: apps/ui/dist)

Stored secrets are encrypted with TAILLAB_SECRETS_PASSPHRASE when it is set, else with a random
key kept in <data-dir>/secrets.key (readable by you only).
`;

export interface WebOptions {
  port: number;
  dataDir: string;
  resultsDir: string;
  uiDir: string;
}

export type PlatformContext = NonNullable<Parameters<typeof defaultResultsDir>[0]>;

const DEFAULT_UI_DIR = join(import.meta.dirname, "..", "..", "ui", "dist");

/** The command line of the web host; throws an Error naming the flag at fault. */
export function parseWebOptions(
  argv: readonly string[],
  context: PlatformContext = { env: process.env, platform: process.platform, home: homedir() },
): WebOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      port: { type: "string" },
      "data-dir": { type: "string" },
      results: { type: "string" },
      "ui-dir": { type: "string" },
    },
    strict: true,
    allowPositionals: false,
  });
  const port = Number(values.port ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port: expected a port number from 0 to 65535, got "${values.port}"`);
  }
  return {
    port,
    dataDir: resolve(values["data-dir"] ?? defaultDataDir(context)),
    resultsDir: resolve(values.results ?? defaultResultsDir(context)),
    uiDir: resolve(values["ui-dir"] ?? DEFAULT_UI_DIR),
  };
}

/**
 * The user's TailLab data folder (XDG_DATA_HOME/taillab, ~/Library/Application Support/TailLab,
 * %APPDATA%/TailLab). The results library's default is this folder's `runs`, so the store's
 * rule gives it: its parent, with the results override set aside.
 */
export function defaultDataDir(context: PlatformContext): string {
  const env = { ...context.env, TAILLAB_RESULTS_DIR: undefined };
  const path = context.platform === "win32" ? win32 : posix;
  return path.dirname(defaultResultsDir({ ...context, env }));
}
