/**
 * A container's environment and arguments as a kubelet resolves them (pure, given the pod and its
 * Secrets and ConfigMaps): envFrom first, then env in order; values may refer to earlier ones as
 * $(VAR); fieldRefs read the pod's own fields (labels and annotations included), secretKeyRef and
 * configMapKeyRef a key of a Secret or ConfigMap. Then $(VAR) is expanded in command and args.
 */
import type { V1Container, V1Pod } from "@kubernetes/client-node";

/** Looks up a key of a Secret or ConfigMap of the pod's namespace; undefined when missing. */
export interface KeyLookup {
  secret(name: string): Record<string, string> | undefined;
  configMap(name: string): Record<string, string> | undefined;
}

/** The kubelet fails such a pod too (CreateContainerConfigError); the message says what's missing. */
export class PodConfigError extends Error {
  override name = "PodConfigError";
}

export function containerEnvironment(
  pod: V1Pod,
  container: V1Container,
  lookup: KeyLookup,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    const prefix = source.prefix ?? "";
    const values = source.secretRef
      ? required(
          lookup.secret(source.secretRef.name ?? ""),
          `Secret "${source.secretRef.name}"`,
          source.secretRef.optional,
        )
      : source.configMapRef
        ? required(
            lookup.configMap(source.configMapRef.name ?? ""),
            `ConfigMap "${source.configMapRef.name}"`,
            source.configMapRef.optional,
          )
        : {};
    for (const [key, value] of Object.entries(values)) env[`${prefix}${key}`] = value;
  }
  for (const variable of container.env ?? []) {
    const from = variable.valueFrom;
    let value: string | undefined;
    if (from === undefined) {
      value = expand(variable.value ?? "", env);
    } else if (from.fieldRef) {
      value = podField(pod, from.fieldRef.fieldPath);
    } else if (from.secretKeyRef) {
      const { name, key, optional } = from.secretKeyRef;
      value = keyOf(lookup.secret(name ?? ""), `Secret "${name}"`, key, optional);
    } else if (from.configMapKeyRef) {
      const { name, key, optional } = from.configMapKeyRef;
      value = keyOf(lookup.configMap(name ?? ""), `ConfigMap "${name}"`, key, optional);
    } else {
      throw new PodConfigError(`env ${variable.name}: unsupported valueFrom`);
    }
    if (value !== undefined) env[variable.name] = value;
  }
  return env;
}

/** $(VAR) → its value when VAR is defined, left as written otherwise; $$ → $. */
export function expand(text: string, env: Readonly<Record<string, string>>): string {
  return text.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (match, name?: string) =>
    name === undefined ? "$" : (env[name] ?? match),
  );
}

const INDEXED_FIELD = /^metadata\.(labels|annotations)\['(.+)'\]$/;

/** The downward API's fields of a pod. */
export function podField(pod: V1Pod, fieldPath: string): string {
  const indexed = INDEXED_FIELD.exec(fieldPath);
  if (indexed) {
    const map = indexed[1] === "labels" ? pod.metadata?.labels : pod.metadata?.annotations;
    return map?.[indexed[2] as string] ?? "";
  }
  const fields: Record<string, string | undefined> = {
    "metadata.name": pod.metadata?.name,
    "metadata.namespace": pod.metadata?.namespace,
    "metadata.uid": pod.metadata?.uid,
    "spec.nodeName": pod.spec?.nodeName,
    "spec.serviceAccountName": pod.spec?.serviceAccountName,
    "status.hostIP": pod.status?.hostIP,
    "status.podIP": pod.status?.podIP,
  };
  if (!(fieldPath in fields)) throw new PodConfigError(`unsupported fieldRef ${fieldPath}`);
  return fields[fieldPath] ?? "";
}

function required(
  values: Record<string, string> | undefined,
  what: string,
  optional: boolean | undefined,
): Record<string, string> {
  if (values === undefined && !optional) throw new PodConfigError(`${what} not found`);
  return values ?? {};
}

function keyOf(
  values: Record<string, string> | undefined,
  what: string,
  key: string,
  optional: boolean | undefined,
): string | undefined {
  const value = values?.[key];
  if (value === undefined && !optional) {
    throw new PodConfigError(
      `${what} ${values === undefined ? "not found" : `has no key "${key}"`}`,
    );
  }
  return value;
}
