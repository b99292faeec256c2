import type { ConnectionReport, ConnectionVerdict, Operation } from "@taillab/api";
import {
  createControlPlane,
  createTransport,
  type RequestOutcome,
  type TransportTarget,
} from "@taillab/engine";
import { createHash, randomBytes } from "node:crypto";
import { newRunId } from "../run-benchmark.ts";
import type { EndpointKeys } from "./endpoint-credentials.ts";

/** What a connection test needs to know about an endpoint, its secrets already resolved. */
export interface ConnectionProbe {
  /** How messages name the endpoint: its URL, or e.g. "embedded testbed (http://…)". */
  label: string;
  target: Omit<TransportTarget, "maxConnections" | "credentials">;
  credentials: EndpointKeys;
}

/** Each request of the test gives up after this long, so a test ends within seconds. */
export const STEP_TIMEOUT_MS = 5_000;
const PROBE_BYTES = 1024;

/**
 * Codes that mean the server refused the keys themselves, wherever they were used. No message
 * quotes the access key id: for environment credentials it is a variable's value, and a test's
 * answer goes to whoever asked for it.
 */
const KEY_REJECTIONS: Readonly<Record<string, string>> = {
  InvalidAccessKeyId:
    "the server does not know the access key id (InvalidAccessKeyId) — check the access key id",
  // versitygw's name for it.
  XAdminUserNotFound:
    "the server does not know the access key id (XAdminUserNotFound) — check the access key id",
  SignatureDoesNotMatch:
    "the server rejected the secret key (SignatureDoesNotMatch) — check the secret access key",
  InvalidToken: "the session token was refused (InvalidToken) — get fresh credentials",
  ExpiredToken: "the session token has expired (ExpiredToken) — get fresh credentials",
  TokenRefreshRequired:
    "the session token must be refreshed (TokenRefreshRequired) — get fresh credentials",
  InvalidSecurity: "the server refused the security credentials (InvalidSecurity) — check the keys",
};
const REGION_CODES = new Set([
  "AuthorizationHeaderMalformed",
  "PermanentRedirect",
  "IllegalLocationConstraintException",
  "InvalidRegion",
]);

/**
 * Whether an endpoint is ready for a run, in the order a person would fix things: something
 * answers at the URL, the keys are accepted, the bucket exists and is ours, and a test object
 * can be written, read back intact and deleted. The test object's key has a run's prefix
 * (`taillab/<id>/`), so nothing of the user's is read or touched.
 */
export async function testConnection(probe: ConnectionProbe): Promise<ConnectionReport> {
  const keys = probe.credentials.kind === "keys" ? probe.credentials.keys : null;
  const target: TransportTarget = { ...probe.target, credentials: keys, maxConnections: 1 };
  const bucket = `bucket "${target.bucket}"`;
  const report = createReportBuilder(probe.label);
  const startedMs = performance.now();
  const transport = createTransport("fast", target, () =>
    Math.round((performance.now() - startedMs) * 1000),
  );
  const step = () => ({ signal: AbortSignal.timeout(STEP_TIMEOUT_MS) });
  const timed = <T extends RequestOutcome>(op: Operation, outcome: T): T => {
    if (outcome.error === null) report.time(op, outcome);
    return outcome;
  };
  try {
    const buckets = timed("LIST_BUCKETS", await transport.listBuckets(step()));
    if (buckets.status === 0) {
      return report.fail("unreachable", "reachable", unreachableReason(buckets.error, target));
    }
    report.pass("reachable", `the server answered (HTTP ${buckets.status})`);
    report.setServer(await serverHeaderOf(target));

    if (probe.credentials.kind === "unavailable") {
      return report.fail("credentials", "credentials", probe.credentials.reason);
    }
    const listing = timed("LIST", await transport.listObjects({ maxKeys: 1 }, step()));
    const rejected = [buckets.error, listing.error].find(
      (code): code is string => code !== null && Object.hasOwn(KEY_REJECTIONS, code),
    );
    if (rejected) {
      return report.fail("credentials", "credentials", KEY_REJECTIONS[rejected] ?? "");
    }
    if (!keys && listing.error === "AccessDenied") {
      return report.fail(
        "credentials",
        "credentials",
        `anonymous requests are refused on ${bucket} (AccessDenied) — give the endpoint access keys`,
      );
    }
    report.pass(
      "credentials",
      !keys
        ? "anonymous (unsigned) requests are accepted"
        : buckets.error === null
          ? "the access key is accepted"
          : `the access key is accepted (ListBuckets answered ${buckets.error}, and a run does not need it)`,
    );

    if (listing.status === 0) {
      return report.fail("unreachable", "bucket", unreachableReason(listing.error, target));
    }
    if (listing.error === "NoSuchBucket") {
      return report.fail(
        "bucket",
        "bucket",
        `${bucket} does not exist (NoSuchBucket) — create it, or choose a bucket that exists`,
      );
    }
    if (listing.error === "AccessDenied") {
      return report.fail(
        "bucket",
        "bucket",
        `the keys are accepted but may not list ${bucket} (AccessDenied) — check the bucket name and the keys' permissions`,
      );
    }
    if (listing.error !== null) {
      return report.fail("error", "bucket", failedRequest(`listing ${bucket}`, listing, target));
    }
    report.pass("bucket", `${bucket} answers`);

    return await probeRequests(transport, target, step, timed, report);
  } finally {
    await transport.close();
  }
}

/** PUT, GET (checked byte for byte), HEAD and DELETE of one small object of the test's own. */
async function probeRequests(
  transport: ReturnType<typeof createTransport>,
  target: TransportTarget,
  step: () => { signal: AbortSignal },
  timed: <T extends RequestOutcome>(op: Operation, outcome: T) => T,
  report: ReportBuilder,
): Promise<ConnectionReport> {
  const bucket = `bucket "${target.bucket}"`;
  const key = `taillab/${newRunId()}/connection-test`;
  const body = randomBytes(PROBE_BYTES);
  const put = timed("PUT", await transport.putObject(key, body, step()));
  if (put.error === "AccessDenied") {
    return report.fail(
      "bucket",
      "requests",
      `the keys may list ${bucket} but not write to it (AccessDenied) — a run needs to write its test objects`,
    );
  }
  if (put.error !== null) {
    return report.fail("error", "requests", failedRequest(`a test PUT to ${bucket}`, put, target));
  }
  const expect = { bytes: PROBE_BYTES, md5Hex: createHash("md5").update(body).digest("hex") };
  const get = timed("GET", await transport.getObject(key, { ...step(), expect }));
  const head = get.error === null ? timed("HEAD", await transport.headObject(key, step())) : null;
  // Deleted whatever went wrong reading it: the test leaves nothing behind.
  const removed = timed("DELETE", await transport.deleteObject(key, step()));
  if (get.error === "ContentMismatch") {
    return report.fail(
      "error",
      "requests",
      "a test object came back with other bytes than were written (ContentMismatch) — the server or a proxy changes data",
    );
  }
  const failed = [
    { doing: "reading back a test object", outcome: get },
    { doing: "a HEAD of a test object", outcome: head },
    { doing: `deleting the test object ${key}`, outcome: removed },
  ].find(({ outcome }) => outcome !== null && outcome.error !== null);
  if (failed?.outcome) {
    return report.fail("error", "requests", failedRequest(failed.doing, failed.outcome, target));
  }
  const timing = (op: Operation) => report.latencyMs(op)?.toFixed(1) ?? "?";
  report.pass(
    "requests",
    `PUT, GET, HEAD and DELETE of a ${PROBE_BYTES / 1024} KiB test object worked`,
  );
  return report.succeed(
    `ready — the keys are accepted and ${bucket} can be written and read (PUT ${timing("PUT")} ms, GET ${timing("GET")} ms)`,
  );
}

function unreachableReason(code: string | null, target: TransportTarget): string {
  switch (code) {
    case "ECONNREFUSED":
      return "nothing answers (connection refused) — is the server running on that port?";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return target.addressing === "virtual-host"
        ? `the host name does not resolve (${code}) — check the URL; virtual-host addressing also needs ${target.bucket}.<host> to resolve, else choose path addressing`
        : `the host name does not resolve (${code}) — check the URL`;
    case "Aborted":
      return `no answer within ${STEP_TIMEOUT_MS / 1000} s — check the URL, and that no firewall is in the way`;
    case "ECONNRESET":
    case "EPIPE":
    case "UND_ERR_SOCKET":
      return `the connection was closed without an answer (${code}) — is it an S3 server, and is http:// or https:// right?`;
  }
  if (code && /^(ERR_SSL|ERR_TLS|EPROTO|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED)/.test(code)) {
    return `TLS failed (${code}) — check http:// against https://, and the server's certificate`;
  }
  return `cannot connect (${code ?? "no answer"}) — check the URL`;
}

function failedRequest(doing: string, outcome: RequestOutcome, target: TransportTarget): string {
  const hint = REGION_CODES.has(outcome.error ?? "")
    ? ` — check the region (now "${target.region}")`
    : "";
  return `${doing} failed (${outcome.error}, HTTP ${outcome.status})${hint}`;
}

/**
 * The Server header, from a HEAD of the bucket (also read off a 403 or 404); null when none
 * comes within a step's time, as the header is a nicety, not a check.
 */
async function serverHeaderOf(target: TransportTarget): Promise<string | null> {
  const controlPlane = createControlPlane(target);
  let timer: NodeJS.Timeout | undefined;
  const giveUp = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), STEP_TIMEOUT_MS);
  });
  try {
    return await Promise.race([controlPlane.serverHeader(), giveUp]);
  } finally {
    clearTimeout(timer);
    await controlPlane.close();
  }
}

type CheckName = ConnectionReport["checks"][number]["name"];
type ReportBuilder = ReturnType<typeof createReportBuilder>;

/** The checks in order; those after the first failure stay "not tried". */
function createReportBuilder(label: string) {
  const names: CheckName[] = ["reachable", "credentials", "bucket", "requests"];
  const checks = names.map((name) => ({
    name,
    ok: null as boolean | null,
    detail: "not tried: an earlier check failed",
  }));
  const timings: ConnectionReport["timings"] = [];
  let server: string | null = null;
  let verdict: ConnectionVerdict | null = null;
  let message = "";
  const check = (name: CheckName) =>
    checks.find((entry) => entry.name === name) as (typeof checks)[number];
  const result = (): ConnectionReport => ({
    verdict: verdict ?? "error",
    message,
    checks,
    server,
    timings,
  });
  return {
    pass(name: CheckName, detail: string) {
      Object.assign(check(name), { ok: true, detail });
    },
    fail(outcome: ConnectionVerdict, name: CheckName, sentence: string): ConnectionReport {
      Object.assign(check(name), { ok: false, detail: sentence });
      verdict = outcome;
      message = `${label}: ${sentence}`;
      return result();
    },
    succeed(sentence: string): ConnectionReport {
      verdict = "ok";
      message = `${label}: ${sentence}`;
      return result();
    },
    time(op: Operation, outcome: RequestOutcome) {
      timings.push({ op, latencyMs: Math.round(outcome.endUs - outcome.readyUs) / 1000 });
    },
    latencyMs: (op: Operation) => timings.find((timing) => timing.op === op)?.latencyMs,
    setServer(value: string | null) {
      server = value;
    },
  };
}
