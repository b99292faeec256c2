/**
 * Debian's Chromium, as every browser test and bench launches it: Playwright's own browser
 * download cannot reach its servers here, and the flags keep it off the network and the GPU.
 */
export const SYSTEM_CHROMIUM = "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
