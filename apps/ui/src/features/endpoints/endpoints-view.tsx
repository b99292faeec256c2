import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "../../shared/page-header.tsx";
import { EndpointCard } from "./endpoint-card.tsx";
import { EndpointForm } from "./endpoint-form.tsx";
import { useEndpointForm } from "./endpoint-form-store.ts";
import { useEndpoints } from "./endpoints-store.ts";

export function EndpointsView() {
  const { t } = useTranslation("endpoints");
  const endpoints = useEndpoints((state) => state.endpoints);
  const loaded = useEndpoints((state) => state.loaded);
  const error = useEndpoints((state) => state.error);
  const load = useEndpoints((state) => state.load);
  const formOpen = useEndpointForm((state) => state.open);
  const startAdd = useEndpointForm((state) => state.startAdd);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section className="view" data-testid="endpoints-view">
      <PageHeader
        title={t("title")}
        subtitle={t("subtitle")}
        action={{
          label: t("add"),
          testId: "endpoint-add",
          disabled: formOpen,
          onClick: () => startAdd(),
        }}
        error={error ? t("loadFailed", { message: error }) : null}
      />
      {formOpen ? <EndpointForm /> : null}
      {loaded && endpoints.length === 0 && !formOpen ? (
        <div className="card empty-state" data-testid="endpoints-empty">
          <h2>{t("empty.title")}</h2>
          <p>{t("empty.text")}</p>
          <div className="toolbar centered">
            <button type="button" className="primary" onClick={() => startAdd("testbed")}>
              {t("addTestbed")}
            </button>
            <button type="button" onClick={() => startAdd()}>
              {t("add")}
            </button>
          </div>
        </div>
      ) : null}
      <div className="card-grid endpoint-grid" data-testid="endpoint-list">
        {endpoints.map((endpoint) => (
          <EndpointCard key={endpoint.id} endpoint={endpoint} />
        ))}
      </div>
    </section>
  );
}
