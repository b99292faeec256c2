import { useState } from "react";
import type { CodedMessage } from "@taillab/api";
import { useTranslation } from "react-i18next";
import { saidOf, useSay } from "../../shared/said.ts";
import { Field } from "../../shared/field.tsx";
import { useExperimentBuilder } from "./experiment-builder-store.ts";
import { fixedTotalSweep, type FixedTotalInput } from "./fixed-total-sweep.ts";

const FIELDS: readonly { key: keyof FixedTotalInput; testId: string }[] = [
  { key: "total", testId: "fixed-total-bytes" },
  { key: "sizes", testId: "fixed-total-sizes" },
  { key: "clients", testId: "fixed-total-clients" },
];

/**
 * Fills in the explicit points of a size sweep at a fixed total: the same bytes at every point,
 * so the sizes compare fairly (512 × 8 KiB … 2 × 2 MiB).
 */
export function FixedTotalHelper() {
  const { t } = useTranslation("experiments");
  const setField = useExperimentBuilder((state) => state.setField);
  const input = useExperimentBuilder((state) => state.fixedTotal);
  const setInput = useExperimentBuilder((state) => state.setFixedTotal);
  const say = useSay();
  const [errors, setErrors] = useState<Partial<Record<keyof FixedTotalInput, CodedMessage>>>({});
  const change = (key: keyof FixedTotalInput, value: string) => {
    setInput({ ...input, [key]: value });
    setErrors({ ...errors, [key]: undefined });
  };
  const fill = () => {
    const result = fixedTotalSweep(input);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setField("points", result.points);
  };
  return (
    <fieldset className="fixed-total" data-testid="fixed-total">
      <legend>{t("fixedTotal.title")}</legend>
      <p className="field-hint">{t("fixedTotal.hint")}</p>
      <div className="fixed-total-fields">
        {FIELDS.map(({ key, testId }) => (
          <Field
            key={key}
            label={t(`fixedTotal.${key}`)}
            error={errors[key] ? say(saidOf(errors[key])) : undefined}
          >
            <input
              data-testid={testId}
              value={input[key]}
              onChange={(event) => change(key, event.target.value)}
            />
          </Field>
        ))}
      </div>
      <button type="button" data-testid="fixed-total-fill" onClick={fill}>
        {t("fixedTotal.fill")}
      </button>
    </fieldset>
  );
}
