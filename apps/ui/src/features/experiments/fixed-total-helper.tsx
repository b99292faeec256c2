import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Field } from "../../shared/field.tsx";
import { useExperimentBuilder } from "./experiment-builder-store.ts";
import { fixedTotalSweep, type FixedTotalInput } from "./fixed-total-sweep.ts";

/** The labs' size sweep by default: 4 MiB per point, 8 KiB … 2 MiB, one client. */
const LAB_SWEEP: FixedTotalInput = {
  total: "4MiB",
  sizes: "8KiB, 16KiB, 32KiB, 64KiB, 128KiB, 256KiB, 512KiB, 1MiB, 2MiB",
  clients: "1",
};

/**
 * Fills in the explicit points of a size sweep at a fixed total: the same bytes at every point,
 * so the sizes compare fairly (512 × 8 KiB … 2 × 2 MiB).
 */
export function FixedTotalHelper() {
  const { t } = useTranslation("experiments");
  const setField = useExperimentBuilder((state) => state.setField);
  const [input, setInput] = useState<FixedTotalInput>(LAB_SWEEP);
  const [errors, setErrors] = useState<Partial<Record<keyof FixedTotalInput, string>>>({});
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
        <Field label={t("fixedTotal.total")} error={errors.total}>
          <input
            data-testid="fixed-total-bytes"
            value={input.total}
            onChange={(event) => change("total", event.target.value)}
          />
        </Field>
        <Field label={t("fixedTotal.sizes")} error={errors.sizes}>
          <input
            data-testid="fixed-total-sizes"
            value={input.sizes}
            onChange={(event) => change("sizes", event.target.value)}
          />
        </Field>
        <Field label={t("fixedTotal.clients")} error={errors.clients}>
          <input
            data-testid="fixed-total-clients"
            inputMode="numeric"
            value={input.clients}
            onChange={(event) => change("clients", event.target.value)}
          />
        </Field>
      </div>
      <button type="button" data-testid="fixed-total-fill" onClick={fill}>
        {t("fixedTotal.fill")}
      </button>
    </fieldset>
  );
}
