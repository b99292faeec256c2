import { coded } from "./coded-message.ts";
import { fieldError, type FieldError } from "./field-error.ts";

/** What the rules below read of an endpoint (a spec's endpoint, or the app's endpoint draft). */
export interface EndpointSettings {
  url: string;
  addressing: "path" | "virtual-host";
  caFile?: string | undefined;
  insecure?: boolean | undefined;
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * Settings that cannot work with the endpoint's URL, each named by its field:
 * - virtual-host addressing asks for `<bucket>.<host>`, which means nothing when the host is an
 *   IP address (S3's SDKs silently fall back to path addressing there, so a run would measure
 *   something else than it says);
 * - a CA file or `insecure` are about TLS, so only for https:// endpoints, and one or the other.
 * An unparseable URL is the URL rule's to report; nothing is said about it here.
 */
export function endpointSettingProblems(endpoint: EndpointSettings): FieldError[] {
  let url: URL;
  try {
    url = new URL(endpoint.url);
  } catch {
    return [];
  }
  const problems: FieldError[] = [];
  const host = url.hostname;
  if (endpoint.addressing === "virtual-host" && (IPV4.test(host) || host.startsWith("["))) {
    problems.push(fieldError("addressing", coded("virtualHostOnIp", { host })));
  }
  const tlsFields = [
    ["caFile", endpoint.caFile !== undefined],
    ["insecure", endpoint.insecure === true],
  ] as const;
  for (const [field, given] of tlsFields) {
    if (given && url.protocol !== "https:") {
      problems.push(fieldError(field, coded("tlsOnlyHttps", { origin: url.origin })));
    }
  }
  if (endpoint.caFile !== undefined && endpoint.insecure === true) {
    problems.push(fieldError("insecure", coded("caFileOrInsecure")));
  }
  return problems;
}
