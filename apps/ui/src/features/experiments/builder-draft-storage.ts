import { newExperimentForm, type ExperimentForm } from "./experiment-form.ts";

/** What of the builder outlives a reload: the draft as typed and where it came from. */
export interface KeptDraft {
  open: boolean;
  experimentId: string | null;
  builtIn: boolean;
  form: ExperimentForm;
  baseSpec: Record<string, unknown>;
  dirty: boolean;
}

const STORAGE_KEY = "taillab.builderDraft";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A kept form, field by field over a new one: a field of another type (an older or damaged copy)
 * takes its default, so a bad copy loses one box, never the app.
 */
function formOf(kept: unknown): ExperimentForm {
  const form = newExperimentForm();
  if (!isRecord(kept)) return form;
  const merged: Record<string, unknown> = { ...form };
  for (const [field, fallback] of Object.entries(form)) {
    const value = kept[field];
    const sameShape = Array.isArray(fallback)
      ? Array.isArray(value) && value.every((item) => typeof item === "string")
      : isRecord(fallback)
        ? isRecord(value) &&
          Object.keys(fallback).every((key) => typeof value[key] === typeof fallback[key])
        : typeof value === typeof fallback;
    if (sameShape) merged[field] = value;
  }
  return merged as unknown as ExperimentForm;
}

/** The draft kept by the last page, or null when there is none (or it cannot be read). */
export function loadKeptDraft(storage: Storage = localStorage): KeptDraft | null {
  try {
    const kept: unknown = JSON.parse(storage.getItem(STORAGE_KEY) ?? "null");
    if (!isRecord(kept)) return null;
    return {
      open: kept.open === true,
      experimentId: typeof kept.experimentId === "string" ? kept.experimentId : null,
      builtIn: kept.builtIn === true,
      form: formOf(kept.form),
      baseSpec: isRecord(kept.baseSpec) ? kept.baseSpec : {},
      dirty: kept.dirty === true,
    };
  } catch {
    return null;
  }
}

export function keepDraft(draft: KeptDraft, storage: Storage = localStorage): void {
  try {
    storage.setItem(STORAGE_KEY, JSON.stringify(draft));
  } catch {
    // A full or blocked storage only means the draft will not survive a reload.
  }
}
