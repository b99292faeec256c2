import { isTiedMode, type ReplicaChoice, type RequestMode } from "@taillab/api";
import { useTranslation } from "react-i18next";
import { Field, FieldGroup } from "../../shared/field.tsx";
import { DraftField, DraftInput } from "./draft-field.tsx";
import { useExperimentBuilder } from "./experiment-builder-store.ts";
import { REQUEST_MODES, usesBackups } from "./experiment-form.ts";
import { useBuilderForm, useChosenEndpoint } from "./use-builder.ts";

const REPLICA_CHOICES: ReplicaChoice[] = ["round-robin", "least-outstanding"];

/** Normal, hedged, tied or adaptive requests (or each of them, to compare), with their knobs. */
export function ModeSection() {
  const { t } = useTranslation("experiments");
  const { form, errors } = useBuilderForm();
  const setField = useExperimentBuilder((state) => state.setField);
  const toggleMode = useExperimentBuilder((state) => state.toggleMode);
  const endpoint = useChosenEndpoint();
  const modes: RequestMode[] = form.compareModes ? form.modes : [form.mode];
  const backups = usesBackups(form);
  const hedging = modes.some((mode) => mode === "hedged" || mode === "adaptive");
  const tied = modes.some(isTiedMode);
  const replicas = Number(form.testbedReplicas || endpoint?.testbed?.replicas || 0);
  const oneReplica =
    endpoint !== undefined &&
    (endpoint.kind === "testbed" ? replicas === 1 : form.replicaEndpointIds.length === 0);

  return (
    <section className="card form-section-card">
      <h2>{t("mode.title")}</h2>
      <label className="check">
        <input
          type="checkbox"
          data-testid="experiment-compare-modes"
          checked={form.compareModes}
          onChange={(event) => setField("compareModes", event.target.checked)}
        />
        {t("mode.compare")}
      </label>
      {form.compareModes ? (
        <FieldGroup
          label={t("mode.mode")}
          error={errors.modes ?? errors.mode}
          hint={t("mode.compareHint")}
        >
          {REQUEST_MODES.map((mode) => (
            <label key={mode} className="check" title={t(`mode.${mode}Hint`)}>
              <input
                type="checkbox"
                data-testid={`experiment-modes-${mode}`}
                checked={form.modes.includes(mode)}
                onChange={() => toggleMode(mode)}
              />
              {t(`mode.${mode}`)}
            </label>
          ))}
        </FieldGroup>
      ) : (
        <Field label={t("mode.mode")} error={errors.mode} hint={t(`mode.${form.mode}Hint`)}>
          <select
            data-testid="experiment-mode"
            value={form.mode}
            onChange={(event) => setField("mode", event.target.value as RequestMode)}
          >
            {REQUEST_MODES.map((mode) => (
              <option key={mode} value={mode}>
                {t(`mode.${mode}`)}
              </option>
            ))}
          </select>
        </Field>
      )}
      {backups ? (
        <>
          {oneReplica ? (
            <p className="banner warning" data-testid="experiment-one-replica">
              {t("mode.oneReplica")}
            </p>
          ) : null}
          <div className="grid-3">
            {hedging ? (
              <>
                <Field label={t("mode.hedgeDelay")} error={errors.hedgeDelay}>
                  <span className="input-with-action">
                    <select
                      data-testid="experiment-hedge-kind"
                      value={form.hedgeDelayKind}
                      onChange={(event) =>
                        setField("hedgeDelayKind", event.target.value as "percentile" | "fixed")
                      }
                    >
                      <option value="percentile">{t("mode.percentile")}</option>
                      <option value="fixed">{t("mode.fixed")}</option>
                    </select>
                    {form.hedgeDelayKind === "fixed" ? (
                      <DraftInput
                        field="hedgeDelayMs"
                        testId="experiment-hedge-delay"
                        unit="ms"
                        ariaLabel={t("mode.fixed")}
                      />
                    ) : (
                      <DraftInput
                        field="hedgePercentile"
                        testId="experiment-hedge-percentile"
                        unit="p"
                        unitBefore
                        ariaLabel={t("mode.percentile")}
                      />
                    )}
                  </span>
                </Field>
                <DraftField
                  field="budgetPercent"
                  testId="experiment-budget"
                  unit="%"
                  label={t("mode.budget")}
                  hint={t("mode.budgetHint")}
                />
              </>
            ) : null}
            {tied ? (
              <DraftField
                field="tiedDelayMs"
                testId="experiment-tied-delay"
                unit="ms"
                label={t("mode.tiedDelay")}
                hint={t("mode.tiedDelayHint")}
              />
            ) : null}
            <Field label={t("mode.replicaChoice")} error={errors.replicaChoice}>
              <select
                data-testid="experiment-replica-choice"
                value={form.replicaChoice}
                onChange={(event) => setField("replicaChoice", event.target.value as ReplicaChoice)}
              >
                {REPLICA_CHOICES.map((choice) => (
                  <option key={choice} value={choice}>
                    {t(`mode.${choice}`)}
                  </option>
                ))}
              </select>
            </Field>
          </div>
        </>
      ) : null}
    </section>
  );
}
