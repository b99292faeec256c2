import type { RunDetail } from "@taillab/api";
import { compareRuns } from "@taillab/core";
import { formatMs } from "@taillab/report";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../../app/api.ts";
import { useNavigation } from "../../app/navigation-store.ts";
import { errorText } from "../../shared/said.ts";
import { defaultRowKey, rowKey } from "../compare/compare-model.ts";
import { modeComparison, type ModeEntry } from "../compare/mode-comparison.ts";
import { ModeVerdictList } from "../compare/mode-verdict-list.tsx";
import { useExperiments } from "./experiments-store.ts";
import { TAIL_LAB_ID, useGuide } from "./guide-store.ts";

/** The built-in labs "when tied wins" sends a class on to. */
const TIED_LABS = { tiedLab: "builtin-tied-cancel", liveLab: "builtin-live-tail" } as const;

/** The walkthrough's steps, in order: each a title, a few sentences and, for some, an action. */
export const GUIDE_STEPS = [
  "why",
  "measure",
  "run",
  "compare",
  "hedging",
  "tied",
  "conclusion",
  "next",
] as const;
type GuideStep = (typeof GUIDE_STEPS)[number];

/**
 * A guided walk through the tail-latency lab for a lecture: why the tail exists, how to measure
 * it, the run itself (normal vs hedged vs tied), its modes compared, what hedging costs, when
 * tied wins, and a conclusion from the class's own numbers. Big type, one idea a step, so it
 * reads from the back of a room. Its step and the lab's runs outlive leaving the screen (the run
 * is watched on the live screen) and a reload.
 */
export function TailLabGuide() {
  const { t } = useTranslation("experiments");
  const index = useGuide((state) => state.step);
  const { goTo, close, runLab } = useGuide.getState();
  const labRunIds = useGuide((state) => state.labRunIds);
  const error = useGuide((state) => state.error);
  const navigate = useNavigation((state) => state.navigate);
  const experiments = useExperiments((state) => state.experiments);
  const lab = experiments.find((known) => known.id === TAIL_LAB_ID);
  const labName = (id: string) => t(`builtIns.${id}.name`);
  const step: GuideStep = GUIDE_STEPS[index] ?? "why";
  const last = index === GUIDE_STEPS.length - 1;
  const ran = labRunIds.length > 1;
  return (
    <section
      className="card guide"
      data-testid="tail-guide"
      data-step={step}
      data-lab-runs={labRunIds.length}
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
          onClick={close}
        >
          {t("guide.close")}
        </button>
      </header>
      <h2 id="tail-guide-title">{t(`guide.steps.${step}.title`)}</h2>
      {step === "conclusion" && ran ? (
        <LabConclusion runIds={labRunIds} />
      ) : (
        <p className="guide-text">
          {step === "compare" || step === "conclusion"
            ? t(`guide.steps.${step}.${ran ? "text" : "notRun"}`)
            : t(`guide.steps.${step}.text`, {
                tiedLab: labName(TIED_LABS.tiedLab),
                liveLab: labName(TIED_LABS.liveLab),
              })}
        </p>
      )}
      {(step === "run" || (!ran && (step === "compare" || step === "conclusion"))) && lab ? (
        <p>
          <button
            type="button"
            className="primary"
            data-testid="tail-guide-run"
            onClick={() => void runLab(lab)}
          >
            {t("guide.runLab")}
          </button>
        </p>
      ) : null}
      {step === "compare" && ran ? (
        <p>
          <button
            type="button"
            className="primary"
            data-testid="tail-guide-compare"
            onClick={() => navigate({ view: "compare", runIds: labRunIds })}
          >
            {t("guide.compareModes")}
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
                onClick={() => void runLab(next)}
              >
                {t("guide.runNamed", { name: labName(id) })}
              </button>
            ) : null;
          })}
        </p>
      ) : null}
      {error ? (
        <p className="error-text" role="alert" data-testid="tail-guide-error">
          {error}
        </p>
      ) : null}
      <footer className="toolbar">
        <button
          type="button"
          data-testid="tail-guide-back"
          disabled={index === 0}
          onClick={() => goTo(index - 1)}
        >
          {t("guide.back")}
        </button>
        <span className="toolbar-spacer" />
        <button
          type="button"
          className="primary"
          data-testid="tail-guide-next"
          onClick={() => (last ? close() : goTo(index + 1))}
        >
          {last ? t("guide.done") : t("guide.next")}
        </button>
      </footer>
    </section>
  );
}

/**
 * What the class's own runs showed: normal's p99.9, each mode's verdict against it, and the
 * lesson those numbers support (or, when hedging did not cut the tail, why not).
 */
function LabConclusion({ runIds }: { runIds: readonly string[] }) {
  const { t } = useTranslation("experiments");
  const [details, setDetails] = useState<RunDetail[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    Promise.all(runIds.map((runId) => api().getRun({ runId })))
      .then((loaded) => current && setDetails(loaded))
      .catch((failure: unknown) => current && setError(errorText(failure)));
    return () => {
      current = false;
    };
  }, [runIds]);
  const entries = useMemo((): ModeEntry[] => {
    if (!details) return [];
    const runs = details.map((detail) => ({ runId: detail.meta.id, label: "", detail }));
    const comparison = compareRuns(details.map((detail) => detail.summary));
    const key = defaultRowKey(comparison);
    const row = comparison.rows.find((entry) => rowKey(entry) === key);
    return row ? modeComparison(runs, row) : [];
  }, [details]);
  if (error) return <p className="error-text">{error}</p>;
  const normal = entries.find((entry) => entry.mode === "normal");
  const hedged = entries.find((entry) => entry.mode === "hedged");
  if (!normal) return null;
  const hedgingCut = hedged !== undefined && hedged.p999Ms < normal.p999Ms;
  return (
    <div
      className="guide-conclusion"
      data-testid="tail-guide-conclusion"
      data-hedging-cut={hedgingCut}
    >
      <p className="guide-text">
        {t("guide.conclusion.normal", {
          p99: formatMs(normal.p99Ms),
          p999: formatMs(normal.p999Ms),
        })}
      </p>
      <ModeVerdictList entries={entries} />
      <p className="guide-text">
        <strong>{t(hedgingCut ? "guide.conclusion.hedgingCut" : "guide.conclusion.noCut")}</strong>
      </p>
    </div>
  );
}
