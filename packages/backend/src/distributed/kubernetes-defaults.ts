import { TAILLAB_VERSION } from "../run-environment.ts";

/**
 * What a distributed run on Kubernetes uses unless told otherwise. Apart from kubernetes-run.ts,
 * which loads the Kubernetes client (a few hundred ms): hosts show these without loading it.
 */

/** The image `taillab k8s run` and the app use unless told another (README: building it). */
export const DEFAULT_TAILLAB_IMAGE = `taillab:${TAILLAB_VERSION}`;
/** Shards not ready this long after the run's start are missing, and the run is aborted. */
export const DEFAULT_BARRIER_TIMEOUT_MS = 5 * 60_000;
/** The Job's hard stop unless told otherwise. */
export const DEFAULT_ACTIVE_DEADLINE_SECONDS = 6 * 3600;
