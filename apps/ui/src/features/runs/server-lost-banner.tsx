import type { RunSummary } from "@taillab/api";
import { useTranslation } from "react-i18next";
import { formatDuration } from "../../shared/display-format.ts";

/**
 * A run whose server stopped answering: when, which phases that ended early, and, when it did
 * not answer again, the phases the run never started (never shown as measured phases).
 */
export function ServerLostBanner({ summary }: { summary: RunSummary }) {
  const { t, i18n } = useTranslation("runs");
  const losses = summary.serverLosses ?? [];
  const [first] = losses;
  if (!first) return null;
  const gone = summary.serverGone;
  const time = new Intl.DateTimeFormat(i18n.language, { timeStyle: "medium" }).format(
    new Date(first.at),
  );
  const pointOf = (pointIndex: number) =>
    summary.pointCount > 1 ? ` (${t("banners.point", { n: pointIndex + 1 })})` : "";
  const phases = losses.map((loss) => `${loss.phase}${pointOf(loss.pointIndex)}`).join(", ");
  const repetitionOf = (repetition: number | undefined) =>
    repetition === undefined ? "" : ` (${t("banners.repetition", { n: repetition + 1 })})`;
  const notRun = gone?.notRun.map(
    (phase) => `${phase.phase}${pointOf(phase.pointIndex)}${repetitionOf(phase.repetition)}`,
  );
  return (
    <div
      className="banner warning"
      role="status"
      data-testid="server-lost-banner"
      data-not-run={gone?.notRun.length ?? 0}
    >
      <strong>{t("banners.serverLostTitle")}</strong>{" "}
      {t("banners.serverLost", { time, into: formatDuration(first.sinceMs), phases })}{" "}
      {gone
        ? notRun && notRun.length > 0
          ? t("banners.serverGone", { error: gone.probeError, notRun: notRun.join(", ") })
          : t("banners.serverGoneAtEnd", { error: gone.probeError })
        : null}
    </div>
  );
}
