import type { RunSummary } from "@taillab/api";
import { formatInteger } from "@taillab/report";
import { useTranslation } from "react-i18next";

/**
 * What each embedded-testbed replica saw: requests received, completed and abandoned by the
 * client. Abandoned requests are the proof that cancelled backups really were cancelled.
 */
export function ReplicaTable({ summary }: { summary: RunSummary }) {
  const { t } = useTranslation("runs");
  const replicas = summary.testbed ?? [];
  if (replicas.length === 0) return null;
  // Runs recorded before the testbed counted its work have no served column.
  const work = replicas.every((replica) => replica.served !== undefined);
  return (
    <section className="card section" data-testid="replicas">
      <h2>{t("replicas.title")}</h2>
      <p className="muted">{t("replicas.intro")}</p>
      <div className="table-scroll">
        <table className="data">
          <thead>
            <tr>
              <th>{t("replicas.replica")}</th>
              <th className="number">{t("replicas.received")}</th>
              <th className="number">{t("replicas.completed")}</th>
              <th className="number">{t("replicas.abandoned")}</th>
              {work ? (
                <>
                  <th className="number" title={t("replicas.servedHint")}>
                    {t("replicas.served")}
                  </th>
                  <th className="number" title={t("replicas.tiesDroppedHint")}>
                    {t("replicas.tiesDropped")}
                  </th>
                </>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {replicas.map((replica) => (
              <tr
                key={replica.url}
                data-testid="replica-row"
                data-url={replica.url}
                data-received={replica.received}
                data-aborted={replica.aborted}
                data-served={replica.served}
                data-ties-dropped={replica.tiesDropped}
              >
                <td className="mono" translate="no">
                  {replica.url}
                </td>
                <td className="number">{formatInteger(replica.received)}</td>
                <td className="number">{formatInteger(replica.completed)}</td>
                <td className="number">{formatInteger(replica.aborted)}</td>
                {work ? (
                  <>
                    <td className="number">{formatInteger(replica.served ?? 0)}</td>
                    <td className="number">{formatInteger(replica.tiesDropped ?? 0)}</td>
                  </>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
