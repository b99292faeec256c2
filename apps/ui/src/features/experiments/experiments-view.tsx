import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "../../shared/page-header.tsx";
import { useEndpoints } from "../endpoints/endpoints-store.ts";
import { ExperimentBuilder } from "./experiment-builder.tsx";
import { useExperimentBuilder } from "./experiment-builder-store.ts";
import { ExperimentList } from "./experiment-list.tsx";
import { useExperiments } from "./experiments-store.ts";

export function ExperimentsView() {
  const { t } = useTranslation("experiments");
  const builderOpen = useExperimentBuilder((state) => state.open);
  const newExperiment = useExperimentBuilder((state) => state.newExperiment);
  const error = useExperiments((state) => state.error);

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
        action={{ label: t("new"), testId: "experiment-new", onClick: newExperiment }}
        error={error ? t("loadFailed", { message: error }) : null}
      />
      <ExperimentList />
    </section>
  );
}
