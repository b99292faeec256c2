import { KubernetesSettingsSchema, type KubernetesSettings } from "@taillab/api";
import { create } from "zustand";
import { api } from "../../app/api.ts";
import { fieldErrorsOf, mapFieldErrors, placeFailure } from "../../shared/field-errors.ts";
import { errorText } from "../../shared/said.ts";

export type SettingsField = keyof KubernetesSettings;
const FIELDS: readonly SettingsField[] = [
  "kubeconfig",
  "context",
  "namespace",
  "image",
  "requests",
  "limits",
  "nodeSelector",
  "tolerations",
  "imagePullSecrets",
  "spread",
  "ttl",
];

interface KubernetesSettingsState {
  /** The dialog is open. */
  open: boolean;
  /** What the boxes hold. */
  draft: KubernetesSettings;
  errors: Partial<Record<SettingsField, string>>;
  /** A failure no box shows. */
  error: string | null;
  saving: boolean;
  /** Opens the dialog on the saved settings. */
  show(): Promise<void>;
  close(): void;
  setField(field: SettingsField, value: string): void;
  save(): Promise<void>;
}

const EMPTY: KubernetesSettings = KubernetesSettingsSchema.parse({});

/** The Kubernetes settings: where "N pods on Kubernetes" sends an experiment. */
export const useKubernetesSettings = create<KubernetesSettingsState>((set, get) => ({
  open: false,
  draft: EMPTY,
  errors: {},
  error: null,
  saving: false,

  async show() {
    set({ open: true, errors: {}, error: null });
    try {
      set({ draft: await api().kubernetesSettings() });
    } catch (error) {
      set({ error: errorText(error) });
    }
  },

  close() {
    set({ open: false });
  },

  setField(field, value) {
    set({
      draft: { ...get().draft, [field]: value },
      errors: { ...get().errors, [field]: undefined },
    });
  },

  async save() {
    set({ saving: true, errors: {}, error: null });
    try {
      const saved = await api().saveKubernetesSettings(get().draft);
      set({ draft: saved, open: false });
    } catch (error) {
      const mapped = mapFieldErrors(fieldErrorsOf(error), (said) =>
        (FIELDS as readonly string[]).includes(said.field)
          ? { field: said.field as SettingsField, said }
          : null,
      );
      set({ errors: mapped.fields, error: placeFailure(mapped, error).banner });
    } finally {
      set({ saving: false });
    }
  },
}));
