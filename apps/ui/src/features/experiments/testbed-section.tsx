import { useTranslation } from "react-i18next";
import { profileToText, TestbedSetupFields } from "../../shared/testbed-setup-fields.tsx";
import { useExperimentBuilder } from "./experiment-builder-store.ts";
import { useBuilderForm, useChosenEndpoint } from "./use-builder.ts";

const FORM_FIELD = {
  replicas: "testbedReplicas",
  profile: "testbedProfile",
  seed: "testbedSeed",
} as const;

/** For a testbed endpoint: replicas, profile and seed for this experiment only. */
export function TestbedSection() {
  const { t } = useTranslation("experiments");
  const { form, errors } = useBuilderForm();
  const setField = useExperimentBuilder((state) => state.setField);
  const endpoint = useChosenEndpoint();
  if (endpoint?.kind !== "testbed") return null;
  const setup = endpoint.testbed;
  return (
    <section className="card form-section-card" data-testid="experiment-testbed">
      <h2>{t("testbed.title")}</h2>
      <p className="field-hint">{t("testbed.hint")}</p>
      <TestbedSetupFields
        testIdPrefix="experiment-testbed"
        values={{
          replicas: form.testbedReplicas,
          profile: form.testbedProfile,
          seed: form.testbedSeed,
        }}
        errors={{
          replicas: errors.testbedReplicas,
          profile: errors.testbedProfile,
          seed: errors.testbedSeed,
        }}
        inherit={{
          replicas: String(setup?.replicas ?? 1),
          profile: profileToText(setup?.profile ?? "fast"),
          seed: String(setup?.seed ?? 1),
        }}
        onChange={(field, value) => setField(FORM_FIELD[field], value)}
      />
    </section>
  );
}
