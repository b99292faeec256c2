import { PHASE_ORDER } from "@taillab/api";
import { useTranslation } from "react-i18next";
import { Field, FieldGroup } from "../../shared/field.tsx";
import { DraftField } from "./draft-field.tsx";
import { useExperimentBuilder } from "./experiment-builder-store.ts";
import { useBuilderForm } from "./use-builder.ts";

/** Clients, requests and sizes (lists make a sweep), the phases, repetitions and checks. */
export function MeasureSection() {
  const { t } = useTranslation("experiments");
  const { form, errors } = useBuilderForm();
  const setField = useExperimentBuilder((state) => state.setField);
  const byPoints = form.points.trim() !== "";
  const byDuration = form.loop === "open" && (form.duration.trim() !== "" || form.untilStopped);
  const listHint = (hint: string) => (byPoints ? t("measure.pointsOverride") : hint);

  return (
    <section className="card form-section-card">
      <h2>{t("measure.title")}</h2>
      {form.useWorkload ? null : (
        <FieldGroup label={t("measure.phases")} error={errors.phases}>
          {PHASE_ORDER.map((phase) => (
            <label key={phase} className="check">
              <input
                type="checkbox"
                data-testid={`experiment-phase-${phase}`}
                checked={form.phases[phase]}
                onChange={(event) =>
                  setField("phases", { ...form.phases, [phase]: event.target.checked })
                }
              />
              {t(`measure.${phase}`)}
            </label>
          ))}
        </FieldGroup>
      )}
      <div className="grid-3">
        <DraftField
          field="clients"
          testId="experiment-clients"
          disabled={byPoints}
          label={t("measure.clients")}
          hint={listHint(t("measure.clientsHint"))}
        />
        <DraftField
          field="samples"
          testId="experiment-samples"
          disabled={byPoints || byDuration}
          shown={byDuration ? "" : undefined}
          label={t("measure.samples")}
          hint={byDuration ? t("measure.samplesOpenHint") : listHint(t("measure.samplesHint"))}
        />
        <DraftField
          field="sizes"
          testId="experiment-sizes"
          disabled={byPoints}
          label={t("measure.sizes")}
          hint={listHint(t("measure.sizesHint"))}
        />
      </div>
      <div className="grid-3">
        <Field label={t("measure.repeat")} error={errors.repeat} hint={t("measure.repeatHint")}>
          <input
            type="number"
            min={1}
            max={100}
            data-testid="experiment-repeat"
            value={form.repeat}
            onChange={(event) => setField("repeat", event.target.value)}
          />
        </Field>
        <label className="check align-end span-2" data-invalid={errors.verify ? "true" : undefined}>
          <input
            type="checkbox"
            data-testid="experiment-verify"
            checked={form.verify}
            onChange={(event) => setField("verify", event.target.checked)}
          />
          {t("measure.verify")}
        </label>
      </div>
      <Field
        label={t("measure.thresholds")}
        error={errors.thresholds}
        hint={t("measure.thresholdsHint")}
      >
        <textarea
          data-testid="experiment-thresholds"
          className="mono"
          translate="no"
          rows={2}
          value={form.thresholds}
          spellCheck={false}
          placeholder={"GET p99.9<50ms@ci\nerrors<0.1%"}
          onChange={(event) => setField("thresholds", event.target.value)}
        />
      </Field>
    </section>
  );
}
