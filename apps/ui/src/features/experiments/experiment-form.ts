import {
  coded,
  formatByteSize,
  parseBudgetPercent,
  parseDuration,
  parseHedgeDelay,
  PHASE_ORDER,
  RequestModeSchema,
  type ExperimentDraftInput,
  type FieldError,
  type MessageParam,
  type Phase,
  type ReplicaChoice,
  type RequestMode,
  type TransportKind,
} from "@taillab/api";
import { mapFieldErrors, type MappedErrors } from "../../shared/field-errors.ts";
import { joinList, numberOrText, splitList } from "../../shared/list-text.ts";
import { saidAbout, type Said } from "../../shared/said.ts";
import {
  profileErrorSaid,
  profileToText,
  textToProfile,
} from "../../shared/testbed-setup-fields.tsx";

/**
 * The experiment builder as typed. Every value is the text in its box, so a mistake is shown
 * next to the box and nothing typed is lost; `formToDraft` turns it into the spec the backend
 * validates, `experimentToForm` goes back for a saved or built-in experiment.
 */
export interface ExperimentForm {
  name: string;
  description: string;
  endpointId: string;
  /** Saved endpoints serving the same bucket, in the order chosen: the run's other replicas. */
  replicaEndpointIds: string[];
  /** Comma-separated lists: several values make the run a sweep. */
  clients: string;
  samples: string;
  sizes: string;
  phases: Record<Phase, boolean>;
  repeat: string;
  /** Thresholds the run must meet, one a line (`GET p99.9<50ms`): the spec's `thresholds`. */
  thresholds: string;
  verify: boolean;
  loop: "closed" | "open";
  rate: string;
  arrivals: "fixed" | "poisson";
  duration: string;
  /** An open loop with no end: a live session, its knobs moved while it runs. */
  untilStopped: boolean;
  mode: RequestMode;
  /** Run once per mode in `modes`, each a run of its own, to compare them. */
  compareModes: boolean;
  modes: RequestMode[];
  hedgeDelayKind: "percentile" | "fixed";
  hedgeDelayMs: string;
  hedgePercentile: string;
  budgetPercent: string;
  tiedDelayMs: string;
  replicaChoice: ReplicaChoice;
  /** A mixed workload replaces the write, read and cleanup phases. */
  useWorkload: boolean;
  workloadOps: string;
  workloadKeys: string;
  workloadSizes: string;
  prepareObjects: string;
  /** The mix's byte ranges, warm-up, limits and multipart uploads: empty means the default. */
  workloadRange: string;
  workloadWarmup: string;
  workloadDuration: string;
  workloadTotalBytes: string;
  multipartPartSize: string;
  multipartPartsInFlight: string;
  /** How requests are sent and named: empty means the default. */
  keyPrefix: string;
  transport: "" | TransportKind;
  requestTimeout: string;
  /** Explicit run points, one `clients × samples × size` a line; they replace the lists. */
  points: string;
  /** This machine, or N pods on the Kubernetes cluster of the Kubernetes settings. */
  loadGenerators: "local" | "kubernetes";
  shards: string;
  /** Testbed endpoints: empty means "as the endpoint is set up". */
  testbedReplicas: string;
  testbedProfile: string;
  testbedSeed: string;
}

type FormField = keyof ExperimentForm;
/** Where errors show: the form's fields, with the hedge delay's two boxes as one. */
export type ErrorField =
  Exclude<FormField, "hedgeDelayKind" | "hedgeDelayMs" | "hedgePercentile"> | "hedgeDelay";

export const REQUEST_MODES: readonly RequestMode[] = RequestModeSchema.options;

export function newExperimentForm(endpointId = ""): ExperimentForm {
  return {
    name: "",
    description: "",
    endpointId,
    replicaEndpointIds: [],
    // The S3Mock lab's closed loop: 8 clients share 256 requests of 32 KiB.
    clients: "8",
    samples: "256",
    sizes: "32KiB",
    phases: { write: true, read: true, cleanup: true },
    repeat: "1",
    thresholds: "",
    verify: false,
    loop: "closed",
    rate: "200/s",
    arrivals: "fixed",
    duration: "",
    untilStopped: false,
    mode: "normal",
    compareModes: false,
    modes: ["normal", "hedged", "tied"],
    hedgeDelayKind: "percentile",
    hedgeDelayMs: "30",
    hedgePercentile: "95",
    budgetPercent: "10",
    tiedDelayMs: "0",
    replicaChoice: "round-robin",
    useWorkload: false,
    workloadOps: "get:70,put:30",
    workloadKeys: "uniform",
    workloadSizes: "",
    prepareObjects: "1000",
    workloadRange: "",
    workloadWarmup: "",
    workloadDuration: "",
    workloadTotalBytes: "",
    multipartPartSize: "",
    multipartPartsInFlight: "",
    keyPrefix: "",
    transport: "",
    requestTimeout: "",
    points: "",
    loadGenerators: "local",
    shards: "4",
    testbedReplicas: "",
    testbedProfile: "",
    testbedSeed: "",
  };
}

type Spec = Record<string, unknown>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const text = (value: unknown): string =>
  value === undefined || value === null
    ? ""
    : typeof value === "object"
      ? JSON.stringify(value)
      : String(value);

const sizeText = (value: unknown): string =>
  typeof value === "number" && Number.isInteger(value) && value > 0
    ? formatByteSize(value)
    : text(value);

function listText(value: unknown, item: (value: unknown) => string): string {
  if (value === undefined) return "";
  return joinList((Array.isArray(value) ? value : [value]).map(item));
}

/** A stored duration in ms as a user would write it: 30000 → `30s`; none → empty. */
function durationText(value: unknown): string {
  if (typeof value !== "number") return text(value);
  return value >= 1000 && value % 1000 === 0 ? `${value / 1000}s` : `${value}ms`;
}

function rateText(value: unknown): string {
  return typeof value === "number" ? `${value}/s` : text(value);
}

/** The builder's form for a saved (or built-in) experiment; fields it does not edit stay in the spec. */
export function experimentToForm(experiment: ExperimentDraftInput): ExperimentForm {
  const spec: Spec = experiment.spec;
  const form = newExperimentForm(experiment.endpointId);
  form.name = experiment.name;
  form.description = experiment.description ?? "";
  form.replicaEndpointIds = [...(experiment.replicaEndpointIds ?? [])];
  if (experiment.modes && experiment.modes.length > 0) {
    form.compareModes = true;
    form.modes = [...experiment.modes];
  }
  if (experiment.loadGenerators?.kind === "kubernetes") {
    form.loadGenerators = "kubernetes";
    form.shards = text(experiment.loadGenerators.shards);
  }
  form.clients = listText(spec.clients, text);
  form.samples = listText(spec.samples, text);
  form.sizes = listText(spec.objectSize, sizeText);
  if (Array.isArray(spec.phases)) {
    form.phases = { write: false, read: false, cleanup: false };
    for (const phase of spec.phases)
      if (PHASE_ORDER.includes(phase as Phase)) form.phases[phase as Phase] = true;
  }
  if (spec.repeat !== undefined) form.repeat = text(spec.repeat);
  if (Array.isArray(spec.thresholds)) form.thresholds = spec.thresholds.map(text).join("\n");
  form.verify = spec.verify === true;

  if (isRecord(spec.openLoop)) {
    form.loop = "open";
    form.rate = rateText(spec.openLoop.rateHz);
    form.arrivals = spec.openLoop.arrivals === "poisson" ? "poisson" : "fixed";
    form.duration =
      spec.openLoop.durationMs === undefined ? "" : durationText(spec.openLoop.durationMs);
    form.untilStopped = spec.openLoop.untilStopped === true;
  }

  if (typeof spec.mode === "string" && REQUEST_MODES.includes(spec.mode as RequestMode)) {
    form.mode = spec.mode as RequestMode;
  }
  if (isRecord(spec.hedge)) readHedge(spec.hedge, form);
  if (spec.replicaChoice === "least-outstanding") form.replicaChoice = "least-outstanding";

  if (isRecord(spec.workload)) {
    form.useWorkload = true;
    form.workloadOps = text(spec.workload.ops);
    form.workloadKeys = spec.workload.keys === undefined ? "uniform" : text(spec.workload.keys);
    form.workloadSizes = text(spec.workload.sizes);
    form.prepareObjects =
      spec.workload.prepareObjects === undefined ? "" : text(spec.workload.prepareObjects);
    form.workloadRange = text(spec.workload.range);
    form.workloadWarmup = durationText(spec.workload.warmupMs);
    form.workloadDuration = durationText(spec.workload.durationMs);
    form.workloadTotalBytes = sizeText(spec.workload.totalBytes);
    form.multipartPartSize = sizeText(spec.workload.multipartPartBytes);
    form.multipartPartsInFlight = text(spec.workload.multipartPartsInFlight);
  }
  form.keyPrefix = text(spec.keyPrefix);
  if (spec.transport === "fast" || spec.transport === "sdk") form.transport = spec.transport;
  form.requestTimeout = durationText(spec.requestTimeoutMs);
  if (Array.isArray(spec.points)) {
    form.points = spec.points
      .map((point) =>
        isRecord(point)
          ? `${text(point.clients)} × ${text(point.samples)} × ${sizeText(point.objectSize)}`
          : text(point),
      )
      .join("\n");
  }
  if (isRecord(spec.testbed)) {
    form.testbedReplicas = text(spec.testbed.replicas);
    form.testbedProfile = profileToText(spec.testbed.profile);
    form.testbedSeed = text(spec.testbed.seed);
  }
  return form;
}

function readHedge(hedge: Record<string, unknown>, form: ExperimentForm): void {
  const delay = typeof hedge.delay === "string" ? parseHedgeDelay(hedge.delay) : null;
  const delaySpec = delay?.ok ? delay.value : isRecord(hedge.delay) ? hedge.delay : null;
  if (delaySpec?.kind === "fixed") {
    form.hedgeDelayKind = "fixed";
    form.hedgeDelayMs = text(delaySpec.delayMs);
  } else if (delaySpec?.kind === "percentile") {
    form.hedgeDelayKind = "percentile";
    form.hedgePercentile = text(delaySpec.percentile);
  }
  if (typeof hedge.budgetPercent === "number") form.budgetPercent = String(hedge.budgetPercent);
  if (typeof hedge.budgetPercent === "string") {
    const budget = parseBudgetPercent(hedge.budgetPercent);
    form.budgetPercent = budget.ok ? String(budget.percent) : hedge.budgetPercent;
  }
  if (typeof hedge.tiedDelayMs === "number") form.tiedDelayMs = String(hedge.tiedDelayMs);
  if (typeof hedge.tiedDelayMs === "string") {
    const tied = parseDuration(hedge.tiedDelayMs);
    form.tiedDelayMs = tied.ok ? String(tied.ms) : hedge.tiedDelayMs;
  }
}

/** Whether the builder shows (and so writes) the hedge options. */
export function usesBackups(form: ExperimentForm): boolean {
  return form.compareModes ? form.modes.some((mode) => mode !== "normal") : form.mode !== "normal";
}

/**
 * The draft the backend validates, on top of `baseSpec` (the experiment as loaded) so fields the
 * builder has no box for survive an edit. Lists go as typed (`4KiB` stays `4KiB`): the schema
 * parses units and names the one value that is wrong.
 */
export function formToDraft(
  form: ExperimentForm,
  baseSpec: Spec,
  { testbed }: { testbed: boolean },
): ExperimentDraftInput {
  const spec: Spec = { ...baseSpec };
  const set = (key: string, value: unknown) => {
    if (value === undefined) delete spec[key];
    else spec[key] = value;
  };
  const openWithoutCount =
    form.loop === "open" && (form.duration.trim() !== "" || form.untilStopped);

  set("clients", splitList(form.clients).map(numberOrText));
  set("samples", openWithoutCount ? undefined : splitList(form.samples).map(numberOrText));
  set("objectSize", splitList(form.sizes));
  set("phases", form.useWorkload ? undefined : PHASE_ORDER.filter((phase) => form.phases[phase]));
  set("repeat", numberOrText(form.repeat));
  const thresholds = form.thresholds.split("\n").filter((line) => line.trim() !== "");
  set("thresholds", thresholds.length > 0 ? thresholds : undefined);
  set("verify", form.verify);
  set("openLoop", form.loop === "open" ? openLoopOf(form, baseSpec.openLoop) : undefined);
  set("mode", form.mode);
  if (usesBackups(form)) set("hedge", hedgeOf(form, baseSpec.hedge));
  set("replicaChoice", form.replicaChoice);
  set("workload", form.useWorkload ? workloadOf(form, baseSpec.workload) : undefined);
  set("points", form.points.trim() === "" ? undefined : pointsOf(form.points));
  set("testbed", testbed ? testbedOf(form) : undefined);
  set("keyPrefix", typedOrUndefined(form.keyPrefix));
  set("transport", form.transport === "" ? undefined : form.transport);
  set("requestTimeoutMs", typedOrUndefined(form.requestTimeout));

  const draft: ExperimentDraftInput = {
    name: form.name,
    description: form.description,
    endpointId: form.endpointId,
    spec,
  };
  if (form.replicaEndpointIds.length > 0) draft.replicaEndpointIds = [...form.replicaEndpointIds];
  if (form.compareModes) draft.modes = REQUEST_MODES.filter((mode) => form.modes.includes(mode));
  if (form.loadGenerators === "kubernetes") {
    // Not a number: the backend says so at the box.
    draft.loadGenerators = { kind: "kubernetes", shards: Number(form.shards.trim() || Number.NaN) };
  }
  return draft;
}

function compact(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

function openLoopOf(form: ExperimentForm, base: unknown): Spec {
  const duration = form.duration.trim();
  return compact({
    ...(isRecord(base) ? base : {}),
    rateHz: numberOrText(form.rate),
    arrivals: form.arrivals,
    // A duration always goes as text: a bare number would be read as milliseconds.
    durationMs: duration === "" || form.untilStopped ? undefined : duration,
    untilStopped: form.untilStopped ? true : undefined,
  });
}

/** A number typed with its unit shown beside the box (`30` + ms) becomes `30ms`. */
function withUnit(typed: string, format: (value: string) => string): string {
  const trimmed = typed.trim();
  return /^\d+(\.\d+)?$/.test(trimmed) ? format(trimmed) : trimmed;
}

function hedgeOf(form: ExperimentForm, base: unknown): Spec {
  return compact({
    ...(isRecord(base) ? base : {}),
    delay:
      form.hedgeDelayKind === "fixed"
        ? withUnit(form.hedgeDelayMs, (ms) => `${ms}ms`)
        : withUnit(form.hedgePercentile, (percentile) => `p${percentile}`),
    budgetPercent: numberOrText(form.budgetPercent),
    tiedDelayMs: numberOrText(form.tiedDelayMs),
  });
}

function workloadOf(form: ExperimentForm, base: unknown): Spec {
  const sizes = form.workloadSizes.trim();
  return compact({
    ...(isRecord(base) ? base : {}),
    ops: form.workloadOps.trim(),
    keys: form.workloadKeys.trim() === "" ? undefined : form.workloadKeys.trim(),
    sizes: sizes === "" ? undefined : sizes,
    prepareObjects: numberOrText(form.prepareObjects),
    // Durations and sizes go as typed (`30s`, `8MiB`): the schema reads the unit.
    range: typedOrUndefined(form.workloadRange),
    warmupMs: typedOrUndefined(form.workloadWarmup),
    durationMs: typedOrUndefined(form.workloadDuration),
    totalBytes: typedOrUndefined(form.workloadTotalBytes),
    multipartPartBytes: typedOrUndefined(form.multipartPartSize),
    multipartPartsInFlight:
      form.multipartPartsInFlight.trim() === ""
        ? undefined
        : numberOrText(form.multipartPartsInFlight),
  });
}

/** A box left empty leaves the spec's default. */
function typedOrUndefined(typed: string): string | undefined {
  return typed.trim() === "" ? undefined : typed.trim();
}

/** `8 × 512 × 8KiB` (also `8, 512, 8KiB` or `8 x 512 x 8KiB`) a line. */
function pointsOf(lines: string): Spec[] {
  return lines
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .map((line) => {
      const [clients = "", samples = "", objectSize] = line.split(/\s*[×xX*,]\s*|\s+/);
      return compact({
        clients: numberOrText(clients),
        samples: numberOrText(samples),
        objectSize,
      });
    });
}

function testbedOf(form: ExperimentForm): Spec | undefined {
  const setup = compact({
    replicas: numberOrText(form.testbedReplicas),
    profile: form.testbedProfile === "" ? undefined : textToProfile(form.testbedProfile),
    seed: numberOrText(form.testbedSeed),
  });
  return Object.keys(setup).length > 0 ? setup : undefined;
}

const DRAFT_FIELDS: Record<string, ErrorField> = {
  name: "name",
  description: "description",
  endpointId: "endpointId",
  replicaEndpointIds: "replicaEndpointIds",
  modes: "modes",
  loadGenerators: "shards",
  "loadGenerators.shards": "shards",
};

const SPEC_FIELDS: [RegExp, ErrorField][] = [
  [/^clients\b/, "clients"],
  [/^samples\b/, "samples"],
  [/^objectSize\b/, "sizes"],
  [/^phases\b/, "phases"],
  [/^repeat\b/, "repeat"],
  [/^thresholds\b/, "thresholds"],
  [/^verify\b/, "verify"],
  [/^openLoop\.durationMs/, "duration"],
  [/^openLoop\.arrivals/, "arrivals"],
  [/^openLoop\b/, "rate"],
  [/^mode\b/, "mode"],
  [/^hedge\.budgetPercent/, "budgetPercent"],
  [/^hedge\.tiedDelayMs/, "tiedDelayMs"],
  [/^hedge\b/, "hedgeDelay"],
  [/^replicaChoice\b/, "replicaChoice"],
  [/^workload\.keys/, "workloadKeys"],
  [/^workload\.sizes/, "workloadSizes"],
  [/^workload\.prepareObjects/, "prepareObjects"],
  [/^workload\.range/, "workloadRange"],
  [/^workload\.warmupMs/, "workloadWarmup"],
  [/^workload\.durationMs/, "workloadDuration"],
  [/^workload\.totalBytes/, "workloadTotalBytes"],
  [/^workload\.multipartPartBytes/, "multipartPartSize"],
  [/^workload\.multipartPartsInFlight/, "multipartPartsInFlight"],
  [/^workload\b/, "workloadOps"],
  [/^points\b/, "points"],
  [/^keyPrefix\b/, "keyPrefix"],
  [/^transport\b/, "transport"],
  [/^requestTimeoutMs\b/, "requestTimeout"],
  [/^testbed\.replicas/, "testbedReplicas"],
  [/^testbed\.seed/, "testbedSeed"],
  [/^testbed\b/, "testbedProfile"],
];

const LIST_ITEM = /^(clients|samples|objectSize)\[(\d+)\]$/;
const POINT_ITEM = /^points\[(\d+)\](?:\.(\w+))?$/;

/**
 * The backend's field errors at the builder's boxes. A call wraps the draft (`experiment.` for
 * startRun, `draft.` for saveExperiment) and the draft wraps the spec (`spec.clients[1]`); an
 * error about one value of a list says which value, as the user typed it.
 */
export function mapExperimentErrors(
  errors: readonly FieldError[],
  form: ExperimentForm,
): MappedErrors<ErrorField> {
  return mapFieldErrors(errors, (error) => {
    const path = error.field.replace(/^(experiment|draft)\./, "");
    if (!path.startsWith("spec.")) {
      const field = DRAFT_FIELDS[path.replace(/\[\d+\]$/, "")];
      return field ? { field, said: error } : null;
    }
    const specPath = path.slice("spec.".length);
    const field = SPEC_FIELDS.find(([pattern]) => pattern.test(specPath))?.[1];
    if (!field) return null;
    if (field === "testbedProfile") return { field, said: profileErrorSaid(specPath, error) };
    return { field, said: describeItem(specPath, error, form) };
  });
}

const POINT_PARTS: Record<string, MessageParam> = {
  clients: coded("unitClients"),
  samples: coded("unitSamples"),
  objectSize: coded("termObjectSize"),
};

/** An error about one value of a list, or one point, saying which: as the user typed it. */
function describeItem(specPath: string, error: Said, form: ExperimentForm): Said {
  const item = LIST_ITEM.exec(specPath);
  if (item) {
    const [, list = "", index = "0"] = item;
    const typed = splitList(
      list === "objectSize" ? form.sizes : form[list as "clients" | "samples"],
    );
    const value = typed[Number(index)];
    return value === undefined || error.message.includes(`"${value}"`)
      ? error
      : saidAbout(error, (problem) => coded("quoted", { value, problem }));
  }
  const point = POINT_ITEM.exec(specPath);
  if (point) {
    const [, index = "0", part] = point;
    const number = Number(index) + 1;
    return saidAbout(error, (problem) =>
      part
        ? coded("pointPart", { index: number, part: POINT_PARTS[part] ?? part, problem })
        : coded("pointItem", { index: number, problem }),
    );
  }
  return error;
}
