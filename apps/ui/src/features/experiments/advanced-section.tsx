import { useTranslation } from "react-i18next";
import { Field } from "../../shared/field.tsx";
import { useExperimentBuilder } from "./experiment-builder-store.ts";
import { useBuilderForm } from "./use-builder.ts";

/** A mixed workload instead of phases, and explicit run points; open when either is in use. */
export function AdvancedSection() {
  const { t } = useTranslation("experiments");
  const { form, errors } = useBuilderForm();
  const setField = useExperimentBuilder((state) => state.setField);
  const inUse = form.useWorkload || form.points.trim() !== "";
  const hasError = Boolean(
    errors.workloadOps ??
    errors.workloadKeys ??
    errors.workloadSizes ??
    errors.prepareObjects ??
    errors.points,
  );

  return (
    <details
      className="card form-section-card advanced"
      open={inUse || hasError}
      data-testid="experiment-advanced"
    >
      <summary>
        <h2>{t("advanced.title")}</h2>
      </summary>
      <div className="details-body">
        <label className="check">
          <input
            type="checkbox"
            data-testid="experiment-workload"
            checked={form.useWorkload}
            onChange={(event) => setField("useWorkload", event.target.checked)}
          />
          {t("advanced.workload")}
        </label>
        <p className="field-hint">{t("advanced.workloadHint")}</p>
        {form.useWorkload ? (
          <div className="grid-2">
            <Field
              label={t("advanced.ops")}
              error={errors.workloadOps}
              hint={t("advanced.opsHint")}
            >
              <input
                data-testid="experiment-workload-ops"
                className="mono"
                value={form.workloadOps}
                spellCheck={false}
                onChange={(event) => setField("workloadOps", event.target.value)}
              />
            </Field>
            <Field
              label={t("advanced.keys")}
              error={errors.workloadKeys}
              hint={t("advanced.keysHint")}
            >
              <input
                data-testid="experiment-workload-keys"
                className="mono"
                value={form.workloadKeys}
                spellCheck={false}
                onChange={(event) => setField("workloadKeys", event.target.value)}
              />
            </Field>
            <Field
              label={t("advanced.sizes")}
              error={errors.workloadSizes}
              hint={t("advanced.sizesHint")}
            >
              <input
                data-testid="experiment-workload-sizes"
                className="mono"
                value={form.workloadSizes}
                spellCheck={false}
                onChange={(event) => setField("workloadSizes", event.target.value)}
              />
            </Field>
            <Field label={t("advanced.prepareObjects")} error={errors.prepareObjects}>
              <input
                type="number"
                min={1}
                data-testid="experiment-prepare-objects"
                value={form.prepareObjects}
                onChange={(event) => setField("prepareObjects", event.target.value)}
              />
            </Field>
          </div>
        ) : null}
        <Field label={t("advanced.points")} error={errors.points} hint={t("advanced.pointsHint")}>
          <textarea
            data-testid="experiment-points"
            className="mono"
            rows={4}
            value={form.points}
            spellCheck={false}
            placeholder={"1 × 512 × 8KiB\n1 × 256 × 16KiB"}
            onChange={(event) => setField("points", event.target.value)}
          />
        </Field>
      </div>
    </details>
  );
}
