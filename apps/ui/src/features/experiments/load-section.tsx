import { useTranslation } from "react-i18next";
import { Field } from "../../shared/field.tsx";
import { DraftField } from "./draft-field.tsx";
import { useExperimentBuilder } from "./experiment-builder-store.ts";
import { useBuilderForm } from "./use-builder.ts";

/** Closed loop (s3bench) or open loop (wrk2: a schedule, latency from the intended start). */
export function LoadSection() {
  const { t } = useTranslation("experiments");
  const { form, errors } = useBuilderForm();
  const setField = useExperimentBuilder((state) => state.setField);

  return (
    <section className="card form-section-card">
      <h2>{t("load.title")}</h2>
      <div className="choice-cards" role="radiogroup" aria-label={t("load.title")}>
        {(["closed", "open"] as const).map((loop) => (
          <label key={loop} className="choice-card" data-checked={form.loop === loop}>
            <input
              type="radio"
              name="experiment-loop"
              data-testid={`experiment-loop-${loop}`}
              checked={form.loop === loop}
              onChange={() => setField("loop", loop)}
            />
            <span>
              <strong>{t(`load.${loop}`)}</strong>
              <small className="field-hint">{t(`load.${loop}Hint`)}</small>
            </span>
          </label>
        ))}
      </div>
      {form.loop === "open" ? (
        <div className="grid-3">
          <DraftField
            field="rate"
            testId="experiment-rate"
            label={t("load.rate")}
            hint={t("load.rateHint")}
          />
          <Field label={t("load.arrivals")} error={errors.arrivals}>
            <select
              data-testid="experiment-arrivals"
              value={form.arrivals}
              onChange={(event) => setField("arrivals", event.target.value as "fixed" | "poisson")}
            >
              <option value="fixed">{t("load.fixed")}</option>
              <option value="poisson">{t("load.poisson")}</option>
            </select>
          </Field>
          <DraftField
            field="duration"
            testId="experiment-duration"
            placeholder="30s"
            disabled={form.untilStopped}
            shown={form.untilStopped ? "" : undefined}
            label={t("load.duration")}
            hint={t("load.durationHint")}
          />
          <label className="check" title={t("load.untilStoppedHint")}>
            <input
              type="checkbox"
              data-testid="experiment-until-stopped"
              checked={form.untilStopped}
              onChange={(event) => setField("untilStopped", event.target.checked)}
            />
            {t("load.untilStopped")}
          </label>
        </div>
      ) : null}
    </section>
  );
}
