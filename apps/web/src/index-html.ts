export const BRIDGE_SCRIPT_PATH = "/taillab-bridge.js";

/**
 * The UI's index.html with the bridge script before its module script: a classic script runs
 * as the parser meets it, module scripts run after parsing, so `window.taillab` exists before
 * any UI code asks for it.
 */
export function injectBridgeScript(html: string): string {
  const moduleScript = /<script\b[^>]*\btype=["']?module\b/i.exec(html);
  if (!moduleScript) {
    throw new Error("the UI's index.html has no module script: is this folder a build of apps/ui?");
  }
  const tag = `<script src=".${BRIDGE_SCRIPT_PATH}"></script>\n    `;
  return html.slice(0, moduleScript.index) + tag + html.slice(moduleScript.index);
}
