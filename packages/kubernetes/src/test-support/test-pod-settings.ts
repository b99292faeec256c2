import type { PodSettings } from "../distributed-job.ts";

/** Small pods, spread when the scheduler can: what the tests' Jobs ask of their cluster. */
export const TEST_POD_SETTINGS: PodSettings = {
  requests: { cpu: "100m", memory: "64Mi" },
  limits: { cpu: "100m", memory: "64Mi" },
  nodeSelector: {},
  tolerations: [],
  imagePullSecrets: [],
  spread: "prefer",
};
