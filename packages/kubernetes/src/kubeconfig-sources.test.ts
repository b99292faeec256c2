import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { missingKubeconfig } from "./kubeconfig-sources.ts";

it("says where it looked for a kubeconfig when there is none, and nothing when there is one", async () => {
  const home = await mkdtemp(join(tmpdir(), "taillab-home-"));
  expect(missingKubeconfig({}, home)).toBe(
    `no kubeconfig found (looked at $KUBECONFIG (not set), ${home}/.kube/config (no such file), a pod's service account (not in a pod)): name one (--kubeconfig, or the app's Kubernetes settings) or set KUBECONFIG`,
  );
  expect(missingKubeconfig({ KUBECONFIG: "/nowhere/config" }, home)).toMatch(
    /^no kubeconfig found \(looked at \$KUBECONFIG=\/nowhere\/config \(no such file\), /,
  );
  await mkdir(join(home, ".kube"));
  await writeFile(join(home, ".kube", "config"), "apiVersion: v1\n");
  expect(missingKubeconfig({}, home)).toBeNull();
});
