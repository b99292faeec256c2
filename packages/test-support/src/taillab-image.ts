import { fileURLToPath } from "node:url";
import { startNodeAgent, type NodeAgent } from "./node-agent.ts";

/** The repository's own CLI, run by the test node agent where a pod names TailLab's image. */
const LOCAL_CLI = fileURLToPath(new URL("../../../apps/cli/src/main.ts", import.meta.url));

/** An image whose repository's last name is `taillab`: "taillab:local", "ghcr.io/x/taillab:0.1". */
const TAILLAB_IMAGE = /(^|\/)taillab(:[^/]*)?(@sha256:[0-9a-f]+)?$/;

export const TAILLAB_TEST_IMAGE = "taillab:local";

/**
 * A node agent entrypoint: TailLab's image runs as `node apps/cli/src/main.ts` on this project's
 * Node (the one running the tests); any other image is unknown.
 */
export function localTaillabEntrypoint(image: string): string[] | undefined {
  return TAILLAB_IMAGE.test(image) ? [process.execPath, LOCAL_CLI] : undefined;
}

const REPOSITORY = fileURLToPath(new URL("../../..", import.meta.url));

/**
 * The tests' kubelet for distributed runs: a node agent that runs TailLab's image as this
 * repository's CLI, in the repository, with the test process's PATH.
 */
export function startTaillabNodeAgent(kubeconfig: string): Promise<NodeAgent> {
  return startNodeAgent({
    kubeconfig,
    entrypoint: localTaillabEntrypoint,
    cwd: REPOSITORY,
    baseEnv: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
  });
}
