import type { EndpointDraftInput, FieldError, SavedEndpoint } from "@taillab/api";
import { mapFieldErrors, type MappedErrors } from "../../shared/field-errors.ts";
import { numberOrText } from "../../shared/list-text.ts";
import {
  profileErrorSaid,
  profileToText,
  textToProfile,
} from "../../shared/testbed-setup-fields.tsx";
import { newEndpointValues, type EndpointFormValues } from "./endpoint-presets.ts";

/** The form's values for a saved endpoint; the secret is never sent back, so it starts empty. */
export function endpointToValues(endpoint: SavedEndpoint): EndpointFormValues {
  const base = newEndpointValues(endpoint.kind);
  const { credentials } = endpoint;
  return {
    ...base,
    name: endpoint.name,
    url: endpoint.url ?? "",
    region: endpoint.region,
    addressing: endpoint.addressing,
    bucket: endpoint.bucket,
    certificateCheck: endpoint.insecure ? "insecure" : endpoint.caFile ? "ca-file" : "system",
    caFile: endpoint.caFile ?? "",
    credentialSource: credentials.kind,
    accessKeyId: credentials.kind === "stored" ? credentials.accessKeyId : "",
    accessKeyIdVar: credentials.kind === "env" ? credentials.accessKeyIdVar : base.accessKeyIdVar,
    secretAccessKeyVar:
      credentials.kind === "env" ? credentials.secretAccessKeyVar : base.secretAccessKeyVar,
    secretAccessKey: "",
    replicas: endpoint.testbed ? String(endpoint.testbed.replicas) : base.replicas,
    profile: endpoint.testbed ? profileToText(endpoint.testbed.profile) : base.profile,
    seed: endpoint.testbed ? String(endpoint.testbed.seed) : base.seed,
  };
}

/**
 * What the form sends. The embedded testbed has no URL (its ports are chosen when it starts) and
 * brings its own keys, so its draft carries neither; an empty secret is left out so an edit
 * keeps the stored one.
 */
export function valuesToDraft(values: EndpointFormValues): EndpointDraftInput {
  const testbed = values.kind === "testbed";
  const draft: EndpointDraftInput = {
    name: values.name,
    kind: values.kind,
    region: values.region,
    addressing: values.addressing,
    bucket: values.bucket,
    credentials: testbed ? { kind: "anonymous" } : credentialsOf(values),
  };
  if (!testbed) draft.url = values.url;
  // An empty CA file goes as typed: the backend's message names the field.
  if (!testbed && values.certificateCheck === "ca-file") draft.caFile = values.caFile;
  if (!testbed && values.certificateCheck === "insecure") draft.insecure = true;
  if (!testbed && values.credentialSource === "stored" && values.secretAccessKey !== "") {
    draft.secretAccessKey = values.secretAccessKey;
  }
  if (testbed) {
    draft.testbed = {
      // Typed text that is not a number goes as typed: the backend's message names it.
      replicas: numberOrText(values.replicas) as number | undefined,
      profile: textToProfile(values.profile),
      seed: numberOrText(values.seed) as number | undefined,
    };
  }
  return draft;
}

function credentialsOf(values: EndpointFormValues): EndpointDraftInput["credentials"] {
  switch (values.credentialSource) {
    case "stored":
      return { kind: "stored", accessKeyId: values.accessKeyId };
    case "env":
      return {
        kind: "env",
        accessKeyIdVar: values.accessKeyIdVar,
        secretAccessKeyVar: values.secretAccessKeyVar,
      };
    case "anonymous":
      return { kind: "anonymous" };
  }
}

const FIELD_OF_PATH: Record<string, keyof EndpointFormValues> = {
  name: "name",
  kind: "kind",
  url: "url",
  region: "region",
  addressing: "addressing",
  bucket: "bucket",
  caFile: "caFile",
  insecure: "certificateCheck",
  credentials: "credentialSource",
  "credentials.kind": "credentialSource",
  "credentials.accessKeyId": "accessKeyId",
  "credentials.accessKeyIdVar": "accessKeyIdVar",
  "credentials.secretAccessKeyVar": "secretAccessKeyVar",
  secretAccessKey: "secretAccessKey",
  testbed: "replicas",
  "testbed.replicas": "replicas",
  "testbed.seed": "seed",
};

/**
 * The backend's field errors at the form's fields. Hosts validate the whole call input, so a
 * field may come wrapped (`draft.bucket` from updateEndpoint); the testbed's profile errors
 * name the inside of a custom profile (`testbed.profile.queue.slots`).
 */
export function mapEndpointErrors(
  errors: readonly FieldError[],
): MappedErrors<keyof EndpointFormValues> {
  return mapFieldErrors(errors, (error) => {
    const path = error.field.replace(/^draft\./, "");
    if (path.startsWith("testbed.profile")) {
      return { field: "profile", said: profileErrorSaid(path, error) };
    }
    const field = FIELD_OF_PATH[path];
    return field ? { field, said: error } : null;
  });
}
