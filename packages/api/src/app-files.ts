import { z } from "zod";
import { ExperimentSchema, KubernetesSettingsSchema, SavedEndpointSchema } from "./app-api.ts";

/**
 * What the app keeps in its data folder besides results: saved endpoints, saved experiments and
 * the encrypted secrets of endpoints. Each file is one JSON document with a schema version, so a
 * later TailLab can upgrade it and an older one can refuse it instead of misreading it.
 */

export const APP_FILES_SCHEMA_VERSION = 1;

/** An endpoint as saved: what the UI sees but `hasSecret`, which the secrets file answers. */
export const StoredEndpointSchema = SavedEndpointSchema.omit({ hasSecret: true });
export type StoredEndpoint = z.infer<typeof StoredEndpointSchema>;

/** endpoints.json */
export const EndpointsFileSchema = z.object({
  schemaVersion: z.literal(APP_FILES_SCHEMA_VERSION),
  endpoints: z.array(StoredEndpointSchema),
});
export type EndpointsFile = z.infer<typeof EndpointsFileSchema>;

/** experiments.json: the saved experiments (built-in ones are not stored). */
export const ExperimentsFileSchema = z.object({
  schemaVersion: z.literal(APP_FILES_SCHEMA_VERSION),
  experiments: z.array(ExperimentSchema),
});
export type ExperimentsFile = z.infer<typeof ExperimentsFileSchema>;

/** secrets.json: by endpoint id, the secret access key encrypted by the host, in base64. */
export const SecretsFileSchema = z.object({
  schemaVersion: z.literal(APP_FILES_SCHEMA_VERSION),
  secrets: z.record(z.string(), z.base64()),
});
export type SecretsFile = z.infer<typeof SecretsFileSchema>;

/** kubernetes.json: where the app sends distributed runs. */
export const KubernetesSettingsFileSchema = z.object({
  schemaVersion: z.literal(APP_FILES_SCHEMA_VERSION),
  settings: KubernetesSettingsSchema,
});
export type KubernetesSettingsFile = z.infer<typeof KubernetesSettingsFileSchema>;
