import { useShallow } from "zustand/react/shallow";
import { useEndpoints } from "../endpoints/endpoints-store.ts";
import { useExperimentBuilder } from "./experiment-builder-store.ts";

/** The form and its errors, for one section of the builder. */
export function useBuilderForm() {
  return useExperimentBuilder(
    useShallow((state) => ({ form: state.form, errors: state.fieldErrors })),
  );
}

/** The endpoint the draft runs against, when it is a saved one. */
export function useChosenEndpoint() {
  const endpointId = useExperimentBuilder((state) => state.form.endpointId);
  return useEndpoints((state) => state.endpoints.find((endpoint) => endpoint.id === endpointId));
}
