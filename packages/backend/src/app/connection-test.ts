import {
  codeOf,
  coded,
  englishOf,
  type CodedMessage,
  type ConnectionReport,
  type ConnectionVerdict,
  type MessageCode,
  type MessageParam,
  type Operation,
} from "@taillab/api";
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
  label: MessageParam;
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
const KEY_REJECTIONS: Readonly<Record<string, MessageCode>> = {
  InvalidAccessKeyId: "unknownKeyId",
  // versitygw's name for it.
  XAdminUserNotFound: "unknownKeyId",
  SignatureDoesNotMatch: "secretRejected",
  InvalidToken: "tokenRefused",
  ExpiredToken: "tokenExpired",
  TokenRefreshRequired: "tokenRefresh",
  InvalidSecurity: "securityRefused",
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
  const bucket = target.bucket;
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
    report.pass("reachable", coded("serverAnswered", { status: buckets.status }));
    report.setServer(await serverHeaderOf(target));

    if (probe.credentials.kind === "unavailable") {
      return report.fail("credentials", "credentials", probe.credentials.reason);
    }
    const listing = timed("LIST", await transport.listObjects({ maxKeys: 1 }, step()));
    const rejected = [buckets.error, listing.error].find(
      (code): code is string => code !== null && Object.hasOwn(KEY_REJECTIONS, code),
    );
    if (rejected) {
      const code = KEY_REJECTIONS[rejected] as "unknownKeyId";
      return report.fail("credentials", "credentials", coded(code, { code: rejected }));
    }
    if (!keys && listing.error === "AccessDenied") {
      return report.fail("credentials", "credentials", coded("anonymousRefused", { bucket }));
    }
    report.pass(
      "credentials",
      !keys
        ? coded("anonymousAccepted")
        : buckets.error === null
          ? coded("keyAccepted")
          : coded("keyAcceptedNoListBuckets", { code: buckets.error }),
    );

    if (listing.status === 0) {
      return report.fail("unreachable", "bucket", unreachableReason(listing.error, target));
    }
    if (listing.error === "NoSuchBucket") {
      return report.fail("bucket", "bucket", coded("bucketDoesNotExist", { bucket }));
    }
    if (listing.error === "AccessDenied") {
      return report.fail("bucket", "bucket", coded("bucketNotListable", { bucket }));
    }
    if (listing.error !== null) {
      const doing = coded("doingListBucket", { bucket });
      return report.fail("error", "bucket", failedRequest(doing, listing, target));
    }
    report.pass("bucket", coded("bucketAnswers", { bucket }));

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
  const bucket = target.bucket;
  const key = `taillab/${newRunId()}/connection-test`;
  const body = randomBytes(PROBE_BYTES);
  const put = timed("PUT", await transport.putObject(key, body, step()));
  if (put.error === "AccessDenied") {
    return report.fail("bucket", "requests", coded("bucketNotWritable", { bucket }));
  }
  if (put.error !== null) {
    const doing = coded("doingTestPut", { bucket });
    return report.fail("error", "requests", failedRequest(doing, put, target));
  }
  const expect = { bytes: PROBE_BYTES, md5Hex: createHash("md5").update(body).digest("hex") };
  const get = timed("GET", await transport.getObject(key, { ...step(), expect }));
  const head = get.error === null ? timed("HEAD", await transport.headObject(key, step())) : null;
  // Deleted whatever went wrong reading it: the test leaves nothing behind.
  const removed = timed("DELETE", await transport.deleteObject(key, step()));
  if (get.error === "ContentMismatch") {
    return report.fail("error", "requests", coded("contentMismatch"));
  }
  const failed = [
    { doing: coded("doingReadBack"), outcome: get },
    { doing: coded("doingTestHead"), outcome: head },
    { doing: coded("doingTestDelete", { key }), outcome: removed },
  ].find(({ outcome }) => outcome !== null && outcome.error !== null);
  if (failed?.outcome) {
    return report.fail("error", "requests", failedRequest(failed.doing, failed.outcome, target));
  }
  const timing = (op: Operation) => report.latencyMs(op)?.toFixed(1) ?? "?";
  report.pass("requests", coded("probeWorked", { kib: PROBE_BYTES / 1024 }));
  return report.succeed(coded("endpointReady", { bucket, put: timing("PUT"), get: timing("GET") }));
}

function unreachableReason(code: string | null, target: TransportTarget): CodedMessage {
  switch (code) {
    case "ECONNREFUSED":
      return coded("nothingAnswers");
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return target.addressing === "virtual-host"
        ? coded("hostUnresolvedVirtual", { code, bucket: target.bucket })
        : coded("hostUnresolved", { code });
    case "Aborted":
      return coded("noAnswerWithin", { seconds: STEP_TIMEOUT_MS / 1000 });
    case "ECONNRESET":
    case "EPIPE":
    case "UND_ERR_SOCKET":
      return coded("closedWithoutAnswer", { code });
  }
  if (code && /^(ERR_SSL|ERR_TLS|EPROTO|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED)/.test(code)) {
    return coded("tlsFailed", { code });
  }
  return code ? coded("cannotConnectCheckUrl", { code }) : coded("noAnswerCheckUrl");
}

function failedRequest(
  doing: CodedMessage,
  outcome: RequestOutcome,
  target: TransportTarget,
): CodedMessage {
  const figures = { doing, code: outcome.error ?? "", status: outcome.status };
  return REGION_CODES.has(outcome.error ?? "")
    ? coded("callFailedRegion", { ...figures, region: target.region })
    : coded("callFailed", figures);
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
function createReportBuilder(label: MessageParam) {
  const names: CheckName[] = ["reachable", "credentials", "bucket", "requests"];
  const checks: ConnectionReport["checks"] = names.map((name) => ({
    name,
    ok: null,
    ...said(coded("notTried")),
  }));
  const timings: ConnectionReport["timings"] = [];
  let server: string | null = null;
  let verdict: ConnectionVerdict | null = null;
  let sentence = coded("notTried");
  const check = (name: CheckName) =>
    checks.find((entry) => entry.name === name) as (typeof checks)[number];
  const result = (): ConnectionReport => {
    const whole = coded("labelled", { label, text: sentence });
    return {
      verdict: verdict ?? "error",
      message: englishOf(whole),
      ...codeOf(whole),
      checks,
      server,
      timings,
    };
  };
  return {
    pass(name: CheckName, detail: CodedMessage) {
      Object.assign(check(name), { ok: true, ...said(detail) });
    },
    fail(outcome: ConnectionVerdict, name: CheckName, why: CodedMessage): ConnectionReport {
      Object.assign(check(name), { ok: false, ...said(why) });
      verdict = outcome;
      sentence = why;
      return result();
    },
    succeed(why: CodedMessage): ConnectionReport {
      verdict = "ok";
      sentence = why;
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

/** A check's detail in English and as data. */
function said(message: CodedMessage): {
  detail: string;
  code: string;
  params: CodedMessage["params"];
} {
  return { detail: englishOf(message), ...codeOf(message) };
}
