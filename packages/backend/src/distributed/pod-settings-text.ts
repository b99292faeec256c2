import type { FieldError } from "@taillab/api";
import type { PodSettings } from "@taillab/kubernetes";

/**
 * The pods' settings as a user writes them, on the command line (`--requests cpu=1,memory=1Gi`)
 * and in the app's Kubernetes settings alike (pure, no Kubernetes client): kubectl's forms.
 * Only the syntax is checked here; the values are checked with the Job (manifest-checks.ts).
 */
export interface PodSettingsText {
  /** "cpu=1,memory=1Gi" */
  requests: string;
  limits: string;
  /** "disktype=ssd,zone=a" */
  nodeSelector: string;
  /** "dedicated=bench:NoSchedule,spot" — key[=value][:effect]; no value: any value. */
  tolerations: string;
  /** "regcred,mirror" */
  imagePullSecrets: string;
  /** prefer, require or none */
  spread: string;
}

export function parsePodSettings(
  text: PodSettingsText,
): { settings: PodSettings; problems: [] } | { settings: null; problems: FieldError[] } {
  const problems: FieldError[] = [];
  const pairs = (field: keyof PodSettingsText, example: string) => {
    const entries = listOf(text[field]).map((entry) => {
      const equals = entry.indexOf("=");
      if (equals <= 0)
        problems.push({ field, message: `"${entry}" is not KEY=VALUE (${example})` });
      return [entry.slice(0, equals), entry.slice(equals + 1)] as const;
    });
    return Object.fromEntries(entries);
  };
  const settings: PodSettings = {
    requests: pairs("requests", "e.g. cpu=1,memory=1Gi"),
    limits: pairs("limits", "e.g. cpu=1,memory=1Gi"),
    nodeSelector: pairs("nodeSelector", "e.g. disktype=ssd"),
    tolerations: listOf(text.tolerations).map((entry) => {
      const colon = entry.lastIndexOf(":");
      const [taint, effect] =
        colon < 0 ? [entry, ""] : [entry.slice(0, colon), entry.slice(colon + 1)];
      const equals = taint.indexOf("=");
      const [key, value] =
        equals < 0 ? [taint, ""] : [taint.slice(0, equals), taint.slice(equals + 1)];
      if (key === "") {
        problems.push({
          field: "tolerations",
          message: `"${entry}" has no taint key (expected KEY[=VALUE][:EFFECT], e.g. dedicated=bench:NoSchedule)`,
        });
      }
      return {
        key,
        operator: equals < 0 ? "Exists" : "Equal",
        ...(equals < 0 ? {} : { value }),
        ...(effect === "" ? {} : { effect }),
      };
    }),
    imagePullSecrets: listOf(text.imagePullSecrets),
    spread: text.spread.trim() as PodSettings["spread"],
  };
  return problems.length > 0 ? { settings: null, problems } : { settings, problems: [] };
}

function listOf(text: string): string[] {
  return text
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
}
