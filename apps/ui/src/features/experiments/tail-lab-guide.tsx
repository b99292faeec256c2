import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useExperimentBuilder } from "./experiment-builder-store.ts";
import { useExperiments } from "./experiments-store.ts";

/** The built-in lab the walkthrough runs. */
export const TAIL_LAB_ID = "builtin-tail-modes";
/** The built-in labs "when tied wins" sends a class on to. */
const TIED_LABS = { tiedLab: "builtin-tied-cancel", liveLab: "builtin-live-tail" } as const;

/** The walkthrough's steps, in order: each a title, a few sentences and, for one, the run. */
export const GUIDE_STEPS = ["why", "measure", "run", "hedging", "tied", "next"] as const;
type GuideStep = (typeof GUIDE_STEPS)[number];

/**
 * A guided walk through the tail-latency lab for a lecture: why the tail exists, how to measure
 * it, the run itself (normal vs hedged vs tied), what hedging costs and when tied wins (cancelled
 * by the client or by the servers, with the two labs that show it). Big type, one idea a step,
 * so it reads from the back of a room.
 */
export function TailLabGuide({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation("experiments");
  const [index, setIndex] = useState(0);
  const experiments = useExperiments((state) => state.experiments);
  const lab = experiments.find((known) => known.id === TAIL_LAB_ID);
  const labName = (id: string) => t(`builtIns.${id}.name`);
  const step: GuideStep = GUIDE_STEPS[index] ?? "why";
  const last = index === GUIDE_STEPS.length - 1;
  return (
    <section
      className="card guide"
      data-testid="tail-guide"
      data-step={step}
      aria-labelledby="tail-guide-title"
    >
      <header className="guide-header">
        <p className="muted">
          {t("guide.title")} · {t("guide.progress", { step: index + 1, count: GUIDE_STEPS.length })}
        </p>
        <button
          type="button"
          className="ghost small"
          data-testid="tail-guide-close"
          onClick={onClose}
        >
          {t("guide.close")}
        </button>
      </header>
      <h2 id="tail-guide-title">{t(`guide.steps.${step}.title`)}</h2>
      <p className="guide-text">
        {t(`guide.steps.${step}.text`, {
          tiedLab: labName(TIED_LABS.tiedLab),
          liveLab: labName(TIED_LABS.liveLab),
        })}
      </p>
      {step === "run" && lab ? (
        <p>
          <button
            type="button"
            className="primary"
            data-testid="tail-guide-run"
            onClick={() => void useExperimentBuilder.getState().runExperiment(lab)}
          >
            {t("guide.runLab")}
          </button>
        </p>
      ) : null}
      {step === "tied" ? (
        <p className="toolbar">
          {Object.values(TIED_LABS).map((id) => {
            const next = experiments.find((known) => known.id === id);
            return next ? (
              <button
                key={id}
                type="button"
                data-testid={`tail-guide-run-${id}`}
                onClick={() => void useExperimentBuilder.getState().runExperiment(next)}
              >
                {t("guide.runNamed", { name: labName(id) })}
              </button>
            ) : null;
          })}
        </p>
      ) : null}
      <footer className="toolbar">
        <button
          type="button"
          data-testid="tail-guide-back"
          disabled={index === 0}
          onClick={() => setIndex(index - 1)}
        >
          {t("guide.back")}
        </button>
        <span className="toolbar-spacer" />
        <button
          type="button"
          className="primary"
          data-testid="tail-guide-next"
          onClick={() => (last ? onClose() : setIndex(index + 1))}
        >
          {last ? t("guide.done") : t("guide.next")}
        </button>
      </footer>
    </section>
  );
}
