import type { RunEnvironment } from "@taillab/api";
import { readFileSync } from "node:fs";
import { arch, cpus, release, totalmem, type } from "node:os";

const TAILLAB_VERSION = (
  JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
    version: string;
  }
).version;

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
