import { EMBEDDED_TESTBED_DEFAULT_NAME, EndpointKindSchema, type EndpointKind } from "@taillab/api";

export type CredentialSource = "stored" | "env" | "anonymous";

/** How an https endpoint's certificate is checked: the system's CAs, a CA file, or not at all. */
export type CertificateCheck = "system" | "ca-file" | "insecure";

/** The endpoint form as typed: text everywhere, so nothing a user types is coerced or lost. */
export interface EndpointFormValues {
  name: string;
  kind: EndpointKind;
  url: string;
  region: string;
  addressing: "path" | "virtual-host";
  bucket: string;
  certificateCheck: CertificateCheck;
  /** With certificateCheck "ca-file": its path on the machine the backend runs on. */
  caFile: string;
  credentialSource: CredentialSource;
  accessKeyId: string;
  /** Write-only: empty on an edit means "keep the saved secret". */
  secretAccessKey: string;
  accessKeyIdVar: string;
  secretAccessKeyVar: string;
  replicas: string;
  profile: string;
  seed: string;
}

export const ENDPOINT_KINDS: readonly EndpointKind[] = EndpointKindSchema.options;

type PresetField = Exclude<keyof EndpointFormValues, "kind" | "secretAccessKey">;
type Preset = Pick<EndpointFormValues, PresetField>;

const BASE: Preset = {
  name: "",
  url: "",
  region: "us-east-1",
  addressing: "path",
  bucket: "loadgen",
  certificateCheck: "system",
  caFile: "",
  credentialSource: "stored",
  accessKeyId: "",
  accessKeyIdVar: "AWS_ACCESS_KEY_ID",
  secretAccessKeyVar: "AWS_SECRET_ACCESS_KEY",
  // Three testbed replicas, so hedged and tied requests have somewhere else to go.
  replicas: "3",
  profile: "steady",
  seed: "1",
};

export function awsUrl(region: string): string {
  return `https://s3.${region}.amazonaws.com`;
}

/** What each kind of server usually runs with on a lab machine (its documented defaults). */
const PRESETS: Record<EndpointKind, Partial<Preset>> = {
  testbed: { name: EMBEDDED_TESTBED_DEFAULT_NAME, credentialSource: "anonymous" },
  minio: { name: "MinIO", url: "http://127.0.0.1:9000", accessKeyId: "minioadmin" },
  "ceph-rgw": { name: "Ceph RGW", url: "http://127.0.0.1:7480" },
  swift: { name: "Swift s3api", url: "http://127.0.0.1:8080" },
  aws: {
    name: "AWS S3",
    url: awsUrl(BASE.region),
    addressing: "virtual-host",
    credentialSource: "env",
  },
  // S3Mock and moto accept any signature, or none.
  s3mock: { name: "S3Mock", url: "http://127.0.0.1:9090", credentialSource: "anonymous" },
  moto: { name: "moto", url: "http://127.0.0.1:5000", credentialSource: "anonymous" },
  custom: {},
};

export function presetValues(kind: EndpointKind): Preset {
  return { ...BASE, ...PRESETS[kind] };
}

export function newEndpointValues(kind: EndpointKind = "minio"): EndpointFormValues {
  return { ...presetValues(kind), kind, secretAccessKey: "" };
}

const PRESET_FIELDS = Object.keys(BASE) as PresetField[];

/**
 * Switches the form to another kind of server: a field takes the new kind's default only when it
 * is empty or still holds the old kind's default, so whatever the user typed stays.
 */
export function applyKind(values: EndpointFormValues, kind: EndpointKind): EndpointFormValues {
  const before = presetValues(values.kind);
  const after = presetValues(kind);
  const next: EndpointFormValues = { ...values, kind };
  for (const field of PRESET_FIELDS) {
    const current = values[field];
    if (current === "" || current === before[field]) {
      (next as Record<PresetField, string>)[field] = after[field];
    }
  }
  return next;
}

/** A region change moves an untouched AWS URL along with it. */
export function applyRegion(values: EndpointFormValues, region: string): EndpointFormValues {
  const followsRegion = values.kind === "aws" && values.url === awsUrl(values.region);
  return { ...values, region, url: followsRegion ? awsUrl(region) : values.url };
}
