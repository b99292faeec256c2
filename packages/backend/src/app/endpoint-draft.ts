import {
  BucketNameSchema,
  coded,
  credentialVariableErrors,
  endpointSettingProblems,
  EndpointUrlSchema,
  fieldError,
  nestedFieldErrors,
  parseFields,
  type EndpointDraft,
  type FieldError,
  type StoredEndpoint,
  type TestbedSetup,
} from "@taillab/api";

/** A new testbed endpoint's setup: two replicas, so hedged and tied requests have a second one. */
export const DEFAULT_TESTBED_SETUP: TestbedSetup = { replicas: 2, profile: "steady", seed: 1 };

/**
 * What the endpoint form's schema cannot check alone: the URL's shape (every kind but the
 * testbed, whose ports are chosen when it starts) and the addressing and TLS settings it can
 * honour (no virtual-host on an IP address, a CA file or no check for https only), the bucket
 * name, that environment credentials
 * name credential variables only, and that stored credentials have a secret — sent with the
 * draft, or already saved (`hasSavedSecret`) when editing.
 */
export function endpointDraftProblems(draft: EndpointDraft, hasSavedSecret: boolean): FieldError[] {
  const problems: FieldError[] = [];
  if (draft.kind !== "testbed") {
    if (!draft.url) {
      problems.push(fieldError("url", coded("urlRequired")));
    } else {
      const url = parseFields(EndpointUrlSchema, draft.url, "url");
      if (!url.ok) problems.push(...url.errors.slice(0, 1));
      else problems.push(...endpointSettingProblems({ ...draft, url: draft.url }));
    }
  }
  const bucket = parseFields(BucketNameSchema, draft.bucket, "bucket");
  if (!bucket.ok) problems.push(...bucket.errors.slice(0, 1));
  if (draft.credentials.kind === "env") {
    problems.push(...nestedFieldErrors("credentials", credentialVariableErrors(draft.credentials)));
  }
  if (draft.credentials.kind === "stored" && !draft.secretAccessKey && !hasSavedSecret) {
    problems.push(fieldError("secretAccessKey", coded("secretRequired")));
  }
  return problems;
}

/**
 * The endpoint to save from a checked draft: the URL without a trailing slash (none for the
 * testbed), the testbed setup for the testbed only, and never the secret.
 */
export function storedEndpointOf(
  draft: EndpointDraft,
  id: string,
  times: { createdAt: string; updatedAt: string },
): StoredEndpoint {
  const isTestbed = draft.kind === "testbed";
  return {
    id,
    name: draft.name,
    kind: draft.kind,
    ...(isTestbed || !draft.url ? {} : { url: draft.url.replace(/\/$/, "") }),
    region: draft.region,
    addressing: draft.addressing,
    bucket: draft.bucket,
    credentials: draft.credentials,
    ...(isTestbed || draft.caFile === undefined ? {} : { caFile: draft.caFile }),
    ...(!isTestbed && draft.insecure ? { insecure: true } : {}),
    ...(isTestbed ? { testbed: draft.testbed ?? DEFAULT_TESTBED_SETUP } : {}),
    ...times,
  };
}
