import { PHASE_ORDER } from "@taillab/api";
import { useTranslation } from "react-i18next";
import { Field } from "../../shared/field.tsx";
import { FieldGroup } from "../../shared/field-group.tsx";
import { useExperimentBuilder } from "./experiment-builder-store.ts";
import { useBuilderForm } from "./use-builder.ts";

/** Clients, requests and sizes (lists make a sweep), the phases, repetitions and checks. */
export function MeasureSection() {
  const { t } = useTranslation("experiments");
  const { form, errors } = useBuilderForm();
  const setField = useExperimentBuilder((state) => state.setField);
  const byPoints = form.points.trim() !== "";
  const byDuration = form.loop === "open" && form.duration.trim() !== "";
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
        <Field
          label={t("measure.clients")}
          error={errors.clients}
          hint={listHint(t("measure.clientsHint"))}
        >
          <input
            data-testid="experiment-clients"
            className="mono"
            value={form.clients}
            disabled={byPoints}
            spellCheck={false}
            onChange={(event) => setField("clients", event.target.value)}
          />
        </Field>
        <Field
          label={t("measure.samples")}
          error={errors.samples}
          hint={byDuration ? t("measure.samplesOpenHint") : listHint(t("measure.samplesHint"))}
        >
          <input
            data-testid="experiment-samples"
            className="mono"
            value={byDuration ? "" : form.samples}
            disabled={byPoints || byDuration}
            spellCheck={false}
            onChange={(event) => setField("samples", event.target.value)}
          />
        </Field>
        <Field
          label={t("measure.sizes")}
          error={errors.sizes}
          hint={listHint(t("measure.sizesHint"))}
        >
          <input
            data-testid="experiment-sizes"
            className="mono"
            value={form.sizes}
            disabled={byPoints}
            spellCheck={false}
            onChange={(event) => setField("sizes", event.target.value)}
          />
        </Field>
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
    </section>
  );
}
