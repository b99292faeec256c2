import { describe, expect, it } from "vitest";
import { localTaillabEntrypoint } from "./taillab-image.ts";

describe("TailLab's image on the test node", () => {
  it.each([
    "taillab:local",
    "taillab",
    "ghcr.io/example/taillab:0.1.0",
    "registry:5000/taillab@sha256:ab12",
  ])("runs %s as the local CLI on this Node", (image) => {
    const entrypoint = localTaillabEntrypoint(image);
    expect(entrypoint?.[0]).toBe(process.execPath);
    expect(entrypoint?.[1]).toMatch(/apps\/cli\/src\/main\.ts$/);
  });

  it.each(["busybox", "example/not-taillab:1", "taillab/other:1"])("does not know %s", (image) => {
    expect(localTaillabEntrypoint(image)).toBeUndefined();
  });
});
