import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "../../shared/page-header.tsx";
import { useEndpoints } from "../endpoints/endpoints-store.ts";
import { ExperimentBuilder } from "./experiment-builder.tsx";
import { useExperimentBuilder } from "./experiment-builder-store.ts";
import { ExperimentList } from "./experiment-list.tsx";
import { useExperiments } from "./experiments-store.ts";
import { useGuide } from "./guide-store.ts";
import { TailLabGuide } from "./tail-lab-guide.tsx";

export function ExperimentsView() {
  const { t } = useTranslation("experiments");
  const builderOpen = useExperimentBuilder((state) => state.open);
  const requestNew = useExperimentBuilder((state) => state.requestNew);
  const error = useExperiments((state) => state.error);
  const guiding = useGuide((state) => state.open);

  useEffect(() => {
    void useExperiments.getState().load();
    // The builder's endpoint picker and testbed section need the endpoints.
    if (!useEndpoints.getState().loaded) void useEndpoints.getState().load();
  }, []);

  if (builderOpen) return <ExperimentBuilder />;
  return (
    <section className="view" data-testid="experiments-view">
      <PageHeader
        title={t("title")}
        subtitle={t("subtitle")}
        action={{ label: t("new"), testId: "experiment-new", onClick: requestNew }}
        error={error ? t("loadFailed", { message: error }) : null}
      />
      {guiding ? (
        <TailLabGuide />
      ) : (
        <p>
          <button type="button" data-testid="tail-guide-open" onClick={useGuide.getState().show}>
            {t("guide.open")}
          </button>
        </p>
      )}
      <ExperimentList />
    </section>
  );
}
