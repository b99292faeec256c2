import type { RunEnvironment } from "@taillab/api";
import { arch, cpus, release, totalmem, type } from "node:os";
// Imported rather than read beside this file, so a bundle (the desktop app's) carries it.
import rootPackage from "../../../package.json" with { type: "json" };

export const TAILLAB_VERSION = rootPackage.version;

/** Where a run was measured, kept beside its results so figures can be compared fairly later. */
export function captureEnvironment(server: string | null): RunEnvironment {
  const processors = cpus();
  return {
    taillabVersion: TAILLAB_VERSION,
    os: `${type()} ${release()} ${arch()}`,
    cpuModel: processors[0]?.model.trim() ?? "unknown",
    cpuCount: Math.max(1, processors.length),
    memoryBytes: totalmem(),
    node: process.version,
    server,
  };
}
