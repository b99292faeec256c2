import { CLIENT_LIMITS } from "@taillab/core";
import { useTranslation } from "react-i18next";
import { verdictText } from "../../shared/client-health-text.ts";
import { useLiveRun } from "./live-run-store.ts";

/**
 * Says the moment TailLab's own client becomes the bottleneck (its newest second's verdict), how
 * far an open loop is behind its schedule, and the arrivals a live lab shed.
 */
export function ClientBanner() {
  const { t } = useTranslation("client");
  const client = useLiveRun((state) => state.client);
  const running = useLiveRun((state) => state.status === "running");
  const newest = client.at(-1);
  if (!running || !newest) return null;
  const shed = client.reduce((sum, second) => sum + second.shed, 0);
  const behind =
    newest.starts > 0 && newest.missedStarts / newest.starts >= CLIENT_LIMITS.missedShare;
  if (newest.verdict.keptUp && shed === 0 && !behind) return null;
  const { reasons, advice } = verdictText(t, newest.verdict, newest);
  return (
    <div className="banner warning" data-testid="client-banner" role="alert">
      {newest.verdict.keptUp ? null : (
        <p>
          <strong>{t("bottleneck")}</strong> {reasons}. {advice}
        </p>
      )}
      {behind ? (
        <p data-testid="client-behind">
          {t("behind", {
            seconds: (newest.behindMs / 1000).toFixed(1),
            missed: newest.missedStarts,
            starts: newest.starts,
          })}
        </p>
      ) : null}
      {shed > 0 ? <p data-testid="client-shed">{t("shed", { count: shed })}</p> : null}
    </div>
  );
}
