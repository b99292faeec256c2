import { useTranslation } from "react-i18next";
import { DraftField } from "../experiments/draft-field.tsx";
import { useExperimentBuilder } from "../experiments/experiment-builder-store.ts";
import { useBuilderForm } from "../experiments/use-builder.ts";
import { useKubernetesSettings } from "./kubernetes-settings-store.ts";

/** The experiment builder's "load generators: this machine | N pods on Kubernetes". */
export function LoadGeneratorsSection() {
  const { t } = useTranslation("kubernetes");
  const { form } = useBuilderForm();
  const setField = useExperimentBuilder((state) => state.setField);

  return (
    <section className="card form-section-card" data-testid="load-generators">
      <h2>{t("generators.title")}</h2>
      <div className="choice-cards" role="radiogroup" aria-label={t("generators.title")}>
        {(["local", "kubernetes"] as const).map((kind) => (
          <label key={kind} className="choice-card" data-checked={form.loadGenerators === kind}>
            <input
              type="radio"
              name="experiment-load-generators"
              data-testid={`load-generators-${kind}`}
              checked={form.loadGenerators === kind}
              onChange={() => setField("loadGenerators", kind)}
            />
            <span>
              <strong>{t(`generators.${kind}`)}</strong>
              <small className="field-hint">{t(`generators.${kind}Hint`)}</small>
            </span>
          </label>
        ))}
      </div>
      {form.loadGenerators === "kubernetes" ? (
        <div className="grid-3">
          <DraftField
            field="shards"
            testId="load-generators-shards"
            label={t("generators.shards")}
            hint={t("generators.shardsHint")}
          />
          <div className="field">
            <button
              type="button"
              data-testid="load-generators-settings"
              onClick={() => void useKubernetesSettings.getState().show()}
            >
              {t("generators.settings")}
            </button>
          </div>
        </div>
      ) : null}
    </section>
  );
}
