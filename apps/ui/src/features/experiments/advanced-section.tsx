import { MIX_WORDS } from "@taillab/api";
import { useTranslation } from "react-i18next";
import { Field } from "../../shared/field.tsx";
import { DraftField } from "./draft-field.tsx";
import { useExperimentBuilder } from "./experiment-builder-store.ts";
import type { ErrorField, ExperimentForm } from "./experiment-form.ts";
import { FixedTotalHelper } from "./fixed-total-helper.tsx";
import { useBuilderForm } from "./use-builder.ts";

type TransportChoice = ExperimentForm["transport"];

/** The request settings a box sets; the section opens when one is set. */
const REQUEST_FIELDS = ["keyPrefix", "transport", "requestTimeout"] as const;

const ADVANCED_ERROR_FIELDS: readonly ErrorField[] = [
  "workloadOps",
  "workloadKeys",
  "workloadSizes",
  "prepareObjects",
  "workloadRange",
  "workloadWarmup",
  "workloadDuration",
  "workloadTotalBytes",
  "multipartPartSize",
  "multipartPartsInFlight",
  "points",
  ...REQUEST_FIELDS,
];

/**
 * A mixed workload instead of phases (with its ranges, warm-up, limits and multipart uploads),
 * explicit run points, and how requests are sent; open when any is in use.
 */
export function AdvancedSection() {
  const { t, i18n } = useTranslation("experiments");
  const { form, errors } = useBuilderForm();
  const setField = useExperimentBuilder((state) => state.setField);
  const inUse =
    form.useWorkload ||
    form.points.trim() !== "" ||
    REQUEST_FIELDS.some((field) => form[field] !== "");
  const hasError = ADVANCED_ERROR_FIELDS.some((field) => errors[field] !== undefined);

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
              hint={t("advanced.opsHint", {
                operations: new Intl.ListFormat(i18n.language).format(MIX_WORDS),
              })}
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
            <DraftField
              field="workloadRange"
              testId="experiment-workload-range"
              label={t("advanced.range")}
              hint={t("advanced.rangeHint")}
            />
            <DraftField
              field="workloadWarmup"
              testId="experiment-workload-warmup"
              label={t("advanced.warmup")}
              hint={t("advanced.warmupHint")}
            />
            <DraftField
              field="workloadDuration"
              testId="experiment-workload-duration"
              label={t("advanced.durationLimit")}
              hint={t("advanced.durationLimitHint")}
            />
            <DraftField
              field="workloadTotalBytes"
              testId="experiment-workload-total-bytes"
              label={t("advanced.bytesLimit")}
              hint={t("advanced.bytesLimitHint")}
            />
            <DraftField
              field="multipartPartSize"
              testId="experiment-multipart-part-size"
              label={t("advanced.partSize")}
              hint={t("advanced.partSizeHint")}
            />
            <DraftField
              field="multipartPartsInFlight"
              testId="experiment-multipart-parts-in-flight"
              label={t("advanced.partsInFlight")}
              hint={t("advanced.partsInFlightHint")}
            />
          </div>
        ) : null}
        <h3>{t("advanced.requests")}</h3>
        <div className="grid-3">
          <DraftField
            field="keyPrefix"
            testId="experiment-key-prefix"
            label={t("advanced.keyPrefix")}
            hint={t("advanced.keyPrefixHint")}
          />
          <Field label={t("advanced.transport")} error={errors.transport}>
            <select
              data-testid="experiment-transport"
              value={form.transport}
              onChange={(event) => setField("transport", event.target.value as TransportChoice)}
            >
              <option value="">{t("advanced.transportDefault")}</option>
              <option value="fast">{t("advanced.transportFast")}</option>
              <option value="sdk">{t("advanced.transportSdk")}</option>
            </select>
          </Field>
          <DraftField
            field="requestTimeout"
            testId="experiment-request-timeout"
            label={t("advanced.requestTimeout")}
            hint={t("advanced.requestTimeoutHint")}
          />
        </div>
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
