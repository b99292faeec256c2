import type { Experiment, ExperimentDraftInput, RequestMode, RunPointParams } from "@taillab/api";
import i18next from "i18next";
import { create } from "zustand";
import { api } from "../../app/api.ts";
import { useNavigation } from "../../app/navigation-store.ts";
import { fieldErrorsOf, placeFailure } from "../../shared/field-errors.ts";
import { errorText } from "../../shared/said.ts";
import { withoutKey } from "../../shared/without-key.ts";
import { useEndpoints } from "../endpoints/endpoints-store.ts";
import { keepDraft, loadKeptDraft } from "./builder-draft-storage.ts";
import { useLiveRun } from "../live-run/live-run-store.ts";
import {
  experimentToForm,
  formToDraft,
  mapExperimentErrors,
  newExperimentForm,
  type ErrorField,
  type ExperimentForm,
} from "./experiment-form.ts";
import { useExperiments } from "./experiments-store.ts";
import { LAB_SWEEP, type FixedTotalInput } from "./fixed-total-sweep.ts";

interface PreviewState {
  /** invalid: the backend named fields to fix; failed: the call itself failed. */
  status: "idle" | "loading" | "ok" | "invalid" | "failed";
  points: RunPointParams[];
  requestCount: number;
  durationMs: number | null;
  message: string | null;
}

const IDLE_PREVIEW: PreviewState = {
  status: "idle",
  points: [],
  requestCount: 0,
  durationMs: null,
  message: null,
};

/** Typing pauses this long before the preview asks the backend. */
export const PREVIEW_DEBOUNCE_MS = 300;

interface BuilderState {
  /** The builder is shown (else the list); the draft stays while other screens are open. */
  open: boolean;
  /** The saved experiment being edited; null for a new one (or a copy not saved yet). */
  experimentId: string | null;
  builtIn: boolean;
  form: ExperimentForm;
  /** The spec as loaded: fields the builder has no box for are kept from it. */
  baseSpec: Record<string, unknown>;
  dirty: boolean;
  fieldErrors: Partial<Record<ErrorField, string>>;
  /** A failure no field shows. */
  error: string | null;
  /** The last save or run failed and every reason is shown at a field. */
  failedAtFields: boolean;
  saved: boolean;
  busy: "saving" | "running" | "removing" | null;
  preview: PreviewState;

  newExperiment(): void;
  /**
   * "New experiment" from the list: with an unsaved draft, asks first (askingNew) rather than
   * discard it; else a new one at once.
   */
  requestNew(): void;
  /** The list asks whether to discard the unsaved draft for a new experiment. */
  askingNew: boolean;
  /**
   * The fixed-total size helper's boxes: kept here, not in the helper, so leaving the builder
   * and coming back finds them as typed (and Fill in the points fills what they say).
   */
  fixedTotal: FixedTotalInput;
  setFixedTotal(input: FixedTotalInput): void;
  edit(experiment: Experiment): void;
  /** Opens a copy (e.g. of a built-in) as a new, unsaved experiment named `name`. */
  copy(experiment: Experiment, name: string): void;
  closeBuilder(): void;
  /** Shows the draft left on the builder again. */
  resumeDraft(): void;
  discard(): void;
  setField<F extends keyof ExperimentForm>(field: F, value: ExperimentForm[F]): void;
  toggleMode(mode: RequestMode): void;
  save(): Promise<void>;
  saveAsCopy(name: string): Promise<void>;
  remove(): Promise<void>;
  /** Starts the run and opens the live screen; on failure the errors show at their fields. */
  run(): Promise<void>;
  /** Opens an experiment in the builder and runs it, so a failure shows at its fields there. */
  runExperiment(experiment: Experiment): Promise<void>;
  /**
   * Opens a draft (e.g. a stored run's spec on its endpoint) as a new experiment in the builder
   * and runs it; the builder shows it starting, and any failure at its fields.
   */
  runDraft(draft: ExperimentDraftInput): Promise<void>;
  /**
   * Opens a draft (e.g. a stored run's spec, one the CLI made too) as a new, unsaved experiment
   * in the builder, to change before running it.
   */
  editDraft(draft: ExperimentDraftInput): void;
  /** Asks for a preview after a pause in typing. */
  schedulePreview(): void;
  refreshPreview(): Promise<void>;
}

function defaultEndpointId(): string {
  const { endpoints } = useEndpoints.getState();
  return (endpoints.find((endpoint) => endpoint.kind === "testbed") ?? endpoints[0])?.id ?? "";
}

let previewTimer: ReturnType<typeof setTimeout> | undefined;
let previewSequence = 0;

export const useExperimentBuilder = create<BuilderState>((set, get) => {
  // A new draft starts with the helper's boxes at the labs' sweep.
  const fresh = {
    askingNew: false,
    fixedTotal: LAB_SWEEP,
    dirty: false,
    fieldErrors: {},
    error: null,
    failedAtFields: false,
    saved: false,
    busy: null,
    preview: IDLE_PREVIEW,
  };

  /** The draft to save or run; an empty name is the placeholder the box shows. */
  const draft = (): ExperimentDraftInput => {
    const { form, baseSpec } = get();
    const endpoint = useEndpoints
      .getState()
      .endpoints.find((known) => known.id === form.endpointId);
    const named =
      form.name.trim() === ""
        ? { ...form, name: i18next.t("builder.untitled", { ns: "experiments" }) }
        : form;
    return formToDraft(named, baseSpec, { testbed: endpoint?.kind === "testbed" });
  };

  /**
   * The fields' errors from now on; "fix the marked fields" is said only while one is marked.
   */
  const markFields = (fieldErrors: Partial<Record<ErrorField, string>>) => ({
    fieldErrors,
    failedAtFields: get().failedAtFields && Object.keys(fieldErrors).length > 0,
  });

  /**
   * Shows why a save or run failed (see placeFailure). The preview's marks stay beside the
   * failure's: a call that stopped at one field must not hide what is wrong elsewhere.
   */
  const showFailure = (failure: unknown) => {
    const mapped = mapExperimentErrors(fieldErrorsOf(failure), get().form);
    const { banner, allAtFields } = placeFailure(mapped, failure);
    set({
      fieldErrors: { ...get().fieldErrors, ...mapped.fields },
      error: banner,
      failedAtFields: allAtFields,
    });
  };

  const open = (form: ExperimentForm, changes: Partial<BuilderState>) => {
    set({
      ...fresh,
      open: true,
      experimentId: null,
      builtIn: false,
      baseSpec: {},
      form,
      ...changes,
    });
    get().schedulePreview();
  };

  return {
    open: false,
    experimentId: null,
    builtIn: false,
    form: newExperimentForm(),
    baseSpec: {},
    ...fresh,
    // The draft left on the builder before the page reloaded (or the app restarted).
    ...loadKeptDraft(),

    newExperiment() {
      open(newExperimentForm(defaultEndpointId()), {});
    },

    askingNew: false,

    setFixedTotal: (fixedTotal) => set({ fixedTotal }),

    requestNew() {
      if (get().dirty) set({ askingNew: true });
      else get().newExperiment();
    },

    edit(experiment) {
      open(experimentToForm(experiment), {
        experimentId: experiment.id,
        builtIn: experiment.builtIn,
        baseSpec: experiment.spec,
      });
    },

    copy(experiment, name) {
      open({ ...experimentToForm(experiment), name }, { baseSpec: experiment.spec, dirty: true });
    },

    closeBuilder() {
      set({ open: false });
    },

    resumeDraft() {
      set({ open: true });
    },

    discard() {
      clearTimeout(previewTimer);
      set({
        ...fresh,
        open: false,
        experimentId: null,
        builtIn: false,
        baseSpec: {},
        form: newExperimentForm(),
      });
    },

    setField(field, value) {
      const { form, fieldErrors } = get();
      const errorField =
        field.startsWith("hedgeDelay") || field === "hedgePercentile" ? "hedgeDelay" : field;
      set({
        form: { ...form, [field]: value },
        ...markFields(withoutKey(fieldErrors, errorField)),
        dirty: true,
        saved: false,
      });
      get().schedulePreview();
    },

    toggleMode(mode) {
      const { modes } = get().form;
      get().setField(
        "modes",
        modes.includes(mode) ? modes.filter((known) => known !== mode) : [...modes, mode],
      );
    },

    async save() {
      const { experimentId, builtIn, form } = get();
      // A built-in cannot change: saving it makes a copy.
      if (builtIn) return get().saveAsCopy(form.name);
      await persist(experimentId);
    },

    async saveAsCopy(name) {
      set({ form: { ...get().form, name } });
      await persist(null);
    },

    async remove() {
      const { experimentId, builtIn } = get();
      if (experimentId === null || builtIn) return;
      set({ busy: "removing", error: null });
      try {
        await api().removeExperiment({ experimentId });
        useExperiments.getState().drop(experimentId);
        get().discard();
      } catch (failure) {
        set({ busy: null, error: errorText(failure) });
      }
    },

    async run() {
      if (get().busy !== null) return;
      set({ busy: "running", error: null, failedAtFields: false, saved: false });
      try {
        const experiment = draft();
        const { runId } = await api().startRun({ experiment });
        set({ busy: null });
        useLiveRun.getState().runRequested(runId, experiment.name);
        useNavigation.getState().navigate({ view: "live" });
      } catch (failure) {
        set({ busy: null });
        showFailure(failure);
      }
    },

    async runExperiment(experiment) {
      get().edit(experiment);
      await get().run();
    },

    async runDraft(experiment) {
      open(experimentToForm(experiment), { baseSpec: experiment.spec });
      useNavigation.getState().navigate({ view: "experiments" });
      await get().run();
    },

    editDraft(experiment) {
      open(experimentToForm(experiment), { baseSpec: experiment.spec, dirty: true });
      useNavigation.getState().navigate({ view: "experiments" });
    },

    schedulePreview() {
      clearTimeout(previewTimer);
      previewTimer = setTimeout(() => void get().refreshPreview(), PREVIEW_DEBOUNCE_MS);
    },

    async refreshPreview() {
      const sequence = ++previewSequence;
      const input = draft();
      set({ preview: { ...get().preview, status: "loading" } });
      try {
        const preview = await api().previewExperiment(input);
        if (sequence !== previewSequence) return;
        const { name: nameError } = get().fieldErrors;
        if (preview.ok) {
          set({
            preview: {
              status: "ok",
              points: preview.points,
              requestCount: preview.requestCount,
              durationMs: preview.durationMs,
              message: null,
            },
            ...markFields(nameError ? { name: nameError } : {}),
          });
        } else {
          const mapped = mapExperimentErrors(preview.errors, get().form);
          set({
            preview: {
              ...IDLE_PREVIEW,
              status: "invalid",
              message: mapped.other.join("\n") || null,
            },
            ...markFields({ ...mapped.fields, ...(nameError ? { name: nameError } : {}) }),
          });
        }
      } catch (failure) {
        if (sequence !== previewSequence) return;
        const mapped = mapExperimentErrors(fieldErrorsOf(failure), get().form);
        set({
          preview: {
            ...IDLE_PREVIEW,
            status: "failed",
            message: mapped.other.join("\n") || errorText(failure),
          },
          ...markFields(mapped.fields),
        });
      }
    },
  };

  async function persist(experimentId: string | null) {
    set({ busy: "saving", error: null, failedAtFields: false, saved: false });
    try {
      const saved = await api().saveExperiment({
        ...(experimentId ? { experimentId } : {}),
        draft: draft(),
      });
      useExperiments.getState().upsert(saved);
      set({
        busy: null,
        experimentId: saved.id,
        builtIn: false,
        baseSpec: saved.spec,
        dirty: false,
        saved: true,
        fieldErrors: {},
      });
    } catch (failure) {
      set({ busy: null });
      showFailure(failure);
    }
  }
});

useExperimentBuilder.subscribe((state, previous) => {
  const { open, experimentId, builtIn, form, baseSpec, dirty } = state;
  if (
    open === previous.open &&
    experimentId === previous.experimentId &&
    form === previous.form &&
    dirty === previous.dirty
  ) {
    return;
  }
  keepDraft({ open, experimentId, builtIn, form, baseSpec, dirty });
});
