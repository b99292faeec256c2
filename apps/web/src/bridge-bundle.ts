import { join } from "node:path";
import { build } from "esbuild";

const BRIDGE_ENTRY = join(import.meta.dirname, "browser", "bridge.ts");

/**
 * browser/bridge.ts and the part of @taillab/api it uses, as one classic script. Bundled in
 * memory when a host starts (tens of milliseconds), so it can never be stale.
 */
export async function bundleBridgeScript(): Promise<string> {
  const result = await build({
    entryPoints: [BRIDGE_ENTRY],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    logLevel: "silent",
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error(`esbuild wrote no bundle for ${BRIDGE_ENTRY}`);
  return output.text;
}
