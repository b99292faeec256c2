import type { EndpointKind, SavedEndpoint } from "@taillab/api";
import { create } from "zustand";
import { api } from "../../app/api.ts";
import { fieldErrorsOf, placeFailure } from "../../shared/field-errors.ts";
import { withoutKey } from "../../shared/without-key.ts";
import {
  IDLE_TEST,
  PENDING_TEST,
  refusedKeyParts,
  runConnectionTest,
  type ConnectionTestState,
  type KeyPart,
} from "./connection-test.ts";
import { endpointToValues, mapEndpointErrors, valuesToDraft } from "./endpoint-draft.ts";
import {
  applyKind,
  applyRegion,
  newEndpointValues,
  type EndpointFormValues,
} from "./endpoint-presets.ts";
import { useEndpoints } from "./endpoints-store.ts";

type FormField = keyof EndpointFormValues;

interface EndpointFormState {
  open: boolean;
  /** The saved endpoint being edited; null while adding one. */
  editingId: string | null;
  values: EndpointFormValues;
  fieldErrors: Partial<Record<FormField, string>>;
  /** The failure of the last save or test, when no field shows it. */
  formError: string | null;
  /** The last save or test failed and every reason is marked at its field. */
  fixFields: boolean;
  saving: boolean;
  test: ConnectionTestState;
  /** The keys the last test's server refused, until the user changes them. */
  refusedKeys: KeyPart[];
  startAdd(kind?: EndpointKind): void;
  startEdit(endpoint: SavedEndpoint): void;
  close(): void;
  setField<F extends Exclude<FormField, "kind">>(field: F, value: EndpointFormValues[F]): void;
  setKind(kind: EndpointKind): void;
  /** True when saved (the form then closes). */
  save(): Promise<boolean>;
  testConnection(): Promise<void>;
  /** Creates the bucket the form names (as a run's createBucket does), then tests again. */
  createBucket(): Promise<void>;
}

const CLOSED = {
  open: false,
  editingId: null,
  values: newEndpointValues(),
  fieldErrors: {},
  formError: null,
  fixFields: false,
  saving: false,
  test: IDLE_TEST,
  refusedKeys: [] as KeyPart[],
};

/** The fields that hold each half of the keys, whichever source gives them. */
const KEY_FIELDS: Record<KeyPart, FormField[]> = {
  accessKey: ["accessKeyId", "accessKeyIdVar"],
  secret: ["secretAccessKey", "secretAccessKeyVar"],
};

/** Changing a key, or where the keys come from, answers the refusal of the old ones. */
function stillRefused(refused: KeyPart[], changed: FormField): KeyPart[] {
  if (changed === "credentialSource") return [];
  return refused.filter((part) => !KEY_FIELDS[part].includes(changed));
}

export const useEndpointForm = create<EndpointFormState>((set, get) => {
  /** Shows why a save or test failed (see placeFailure); true when every reason is at a field. */
  const showFailure = (error: unknown): boolean => {
    const mapped = mapEndpointErrors(fieldErrorsOf(error));
    const { banner, allAtFields } = placeFailure(mapped, error);
    set({ fieldErrors: mapped.fields, formError: banner, fixFields: allAtFields });
    return allAtFields;
  };

  return {
    ...CLOSED,

    startAdd(kind = "minio") {
      set({ ...CLOSED, open: true, values: newEndpointValues(kind) });
    },

    startEdit(endpoint) {
      set({ ...CLOSED, open: true, editingId: endpoint.id, values: endpointToValues(endpoint) });
    },

    close() {
      set(CLOSED);
    },

    setField(field, value) {
      const { values, fieldErrors } = get();
      const next =
        field === "region" ? applyRegion(values, value as string) : { ...values, [field]: value };
      // The user is fixing this field: its old error would now be misleading.
      set({
        values: next,
        fieldErrors: withoutKey(fieldErrors, field),
        refusedKeys: stillRefused(get().refusedKeys, field),
      });
    },

    setKind(kind) {
      set({
        values: applyKind(get().values, kind),
        fieldErrors: {},
        test: IDLE_TEST,
        refusedKeys: [],
      });
    },

    async save() {
      const { values, editingId } = get();
      set({ saving: true, formError: null, fixFields: false });
      try {
        const draft = valuesToDraft(values);
        const saved = editingId
          ? await api().updateEndpoint({ endpointId: editingId, draft })
          : await api().addEndpoint(draft);
        useEndpoints.getState().upsert(saved);
        set(CLOSED);
        return true;
      } catch (error) {
        set({ saving: false });
        showFailure(error);
        return false;
      }
    },

    testConnection() {
      return check("testConnection");
    },

    createBucket() {
      return check("createBucket");
    },
  };

  async function check(call: "testConnection" | "createBucket") {
    const { values, editingId } = get();
    set({ test: PENDING_TEST, formError: null, fixFields: false, refusedKeys: [] });
    // On an edit the backend keeps the saved secret when the form leaves it empty.
    const draft = valuesToDraft(values);
    const input = editingId ? { endpointId: editingId, draft } : { draft };
    const { state, failure } = await runConnectionTest(input, call);
    if (failure === null) {
      set({ test: state, fieldErrors: {}, refusedKeys: refusedKeyParts(state.report) });
      return;
    }
    // The form could not be tested as filled in: the fields say why, else the verdict panel.
    const atFields = showFailure(failure);
    set({ test: atFields ? IDLE_TEST : state, formError: null });
  }
});
