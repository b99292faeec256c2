import type { RunMeta } from "@taillab/api";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useNavigation } from "../../app/navigation-store.ts";
import { PlayIcon } from "../../shared/icons.tsx";
import { useExperimentBuilder } from "../experiments/experiment-builder-store.ts";
import { useExperimentText } from "../experiments/experiment-text.ts";
import { useExperiments } from "../experiments/experiments-store.ts";
import { runAgainDraft } from "./run-again.ts";
import { useRunDetail } from "./run-detail-store.ts";

/**
 * "Run again" (the same spec on the same endpoint, through the builder so a problem shows at its
 * field) and a link to the experiment the run came from, when the host still knows them.
 */
export function RunOriginActions({ meta }: { meta: RunMeta }) {
  const { t } = useTranslation("runs");
  const origin = useRunDetail((state) => (state.runId === meta.id ? state.origin : null));
  const experiments = useExperiments((state) => state.experiments);
  const busy = useExperimentBuilder((state) => state.busy);
  const navigate = useNavigation((state) => state.navigate);
  const textOf = useExperimentText();
  const experimentId = origin?.experimentId ?? null;

  const experiment = experiments.find((known) => known.id === experimentId);
  const missing = experimentId !== null && !experiment;
  // The list may have been loaded before the experiment was saved (or not at all): once more.
  useEffect(() => {
    if (missing) void useExperiments.getState().load();
  }, [missing, experimentId]);

  // Another tool ran it: TailLab has no spec of its own to run again.
  if (meta.imported) return null;
  const endpointId = origin?.endpointId ?? null;
  const draft = () =>
    runAgainDraft(meta, {
      endpointId: endpointId ?? "",
      replicaEndpointIds: origin?.replicaEndpointIds,
    });
  return (
    <>
      {experiment ? (
        <button
          type="button"
          className="ghost small"
          data-testid="run-experiment"
          onClick={() => {
            useExperimentBuilder.getState().edit(experiment);
            navigate({ view: "experiments" });
          }}
        >
          {t("origin.experiment", { name: textOf(experiment).name })}
        </button>
      ) : null}
      <button
        type="button"
        data-testid="run-again"
        disabled={endpointId === null || busy !== null}
        title={origin && endpointId === null ? t("origin.noEndpoint") : t("origin.runAgainHint")}
        onClick={() => {
          if (endpointId !== null) void useExperimentBuilder.getState().runDraft(draft());
        }}
      >
        <PlayIcon />
        {t("origin.runAgain")}
      </button>
      {/* With no saved endpoint left for it, the builder asks for one. */}
      <button
        type="button"
        className="ghost small"
        data-testid="run-edit"
        disabled={busy !== null}
        title={t("origin.editAndRunHint")}
        onClick={() => useExperimentBuilder.getState().editDraft(draft())}
      >
        {t("origin.editAndRun")}
      </button>
    </>
  );
}
