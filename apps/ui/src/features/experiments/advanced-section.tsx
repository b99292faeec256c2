import { useTranslation } from "react-i18next";
import { Field } from "../../shared/field.tsx";
import { DraftField } from "./draft-field.tsx";
import { useExperimentBuilder } from "./experiment-builder-store.ts";
import { FixedTotalHelper } from "./fixed-total-helper.tsx";
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
            <DraftField
              field="workloadOps"
              testId="experiment-workload-ops"
              label={t("advanced.ops")}
              hint={t("advanced.opsHint")}
            />
            <DraftField
              field="workloadKeys"
              testId="experiment-workload-keys"
              label={t("advanced.keys")}
              hint={t("advanced.keysHint")}
            />
            <DraftField
              field="workloadSizes"
              testId="experiment-workload-sizes"
              label={t("advanced.sizes")}
              hint={t("advanced.sizesHint")}
            />
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
        <FixedTotalHelper />
      </div>
    </details>
  );
}
