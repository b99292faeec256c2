import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/** Builds the renderer into dist/, loaded from disk by Electron and served by apps/web. */
export default defineConfig({
  root: import.meta.dirname,
  // Relative asset URLs: Electron loads the files from disk, apps/web serves them at its root.
  base: "./",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // No source maps: the hosts never serve them (they would hand out the whole UI source,
    // megabytes of it), and the package has no use for them either.
    sourcemap: false,
    // One bundle read from disk (Electron) or from localhost (apps/web): its size costs no
    // download worth splitting Chart.js and the histogram code out for.
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      onLog(level, log, report) {
        // hdr-histogram-js's bundle carries a WebAssembly loader that calls eval. TailLab never
        // turns its WebAssembly mode on, and the page's CSP forbids eval in any case.
        if (log.code === "EVAL" && log.id?.includes("hdr-histogram-js")) return;
        report(level, log);
      },
    },
  },
});
