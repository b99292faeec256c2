import { parseDuration } from "@taillab/api";
import {
  DEFAULT_POD_LIMITS,
  DEFAULT_POD_REQUESTS,
  DEFAULT_POD_SPREAD,
  DEFAULT_TTL_AFTER_FINISHED,
} from "@taillab/core";
import { TAILLAB_VERSION } from "../run-environment.ts";
import type { PodSettingsText } from "./pod-settings-text.ts";

/**
 * What a distributed run on Kubernetes uses unless told otherwise. Apart from kubernetes-run.ts,
 * which loads the Kubernetes client (a few hundred ms): hosts show these without loading it.
 */

/**
 * The image `taillab k8s run` and the app use unless told another: the name `podman build -t
 * taillab:VERSION` gives the image it builds (README: building and pushing it). It names its
 * registry: without one, a node would pull whatever Docker Hub holds under that name.
 */
export const DEFAULT_TAILLAB_IMAGE = `localhost/taillab:${TAILLAB_VERSION}`;
/** Shards not ready this long after the run's start are missing, and the run is aborted. */
export const DEFAULT_BARRIER_TIMEOUT_MS = 5 * 60_000;
/** The Job's hard stop unless told otherwise. */
export const DEFAULT_ACTIVE_DEADLINE_SECONDS = 6 * 3600;
/** The finished Job, its pods and its Secret are kept this long (core's default). */
export const DEFAULT_TTL_AFTER_FINISHED_SECONDS = durationSeconds(DEFAULT_TTL_AFTER_FINISHED);
export const DEFAULT_POD_SETTINGS: PodSettingsText = {
  requests: DEFAULT_POD_REQUESTS,
  limits: DEFAULT_POD_LIMITS,
  nodeSelector: "",
  tolerations: "",
  imagePullSecrets: "",
  spread: DEFAULT_POD_SPREAD,
};

function durationSeconds(text: string): number {
  const parsed = parseDuration(text);
  if (!parsed.ok) throw new Error(`kubernetes-defaults: "${text}" is not a duration`);
  return parsed.ms / 1000;
}
