import { UNTIL_STOPPED_SAMPLES } from "@taillab/api";
import { useTranslation } from "react-i18next";
import { formatInteger, formatSize } from "@taillab/report";
import { formatDuration } from "../../shared/display-format.ts";
import { useExperimentBuilder } from "./experiment-builder-store.ts";

/** Enough rows to see a sweep's shape; the count says how many more there are. */
const SHOWN_POINTS = 12;

/** What running the draft would do, refreshed as the user types (see schedulePreview). */
export function SweepPreview() {
  const { t } = useTranslation("experiments");
  const preview = useExperimentBuilder((state) => state.preview);
  const runs = useExperimentBuilder((state) =>
    state.form.compareModes ? state.form.modes.length : 1,
  );
  const { points, status } = preview;
  const shown = points.slice(0, SHOWN_POINTS);
  const untilStopped = points.some((point) => point.samples === UNTIL_STOPPED_SAMPLES);

  return (
    <section
      className="card preview-card"
      data-testid="sweep-preview"
      data-state={status}
      data-points={points.length}
      data-requests={preview.requestCount}
      aria-live="polite"
    >
      <header className="preview-header">
        <h2>{t("preview.title")}</h2>
        {status === "loading" ? (
          <span className="muted small">
            <span className="spinner" aria-hidden="true" /> {t("preview.updating")}
          </span>
        ) : null}
      </header>
      {status === "invalid" || status === "failed" ? (
        <p className="banner warning" data-testid="sweep-preview-problem">
          {status === "failed"
            ? t("preview.failed", { message: preview.message ?? "" })
            : (preview.message ?? t("preview.invalid"))}
        </p>
      ) : null}
      {points.length > 0 ? (
        <>
          <div className="stat-row">
            <div className="stat">
              <span className="value" data-testid="sweep-preview-points">
                {formatInteger(points.length)}
              </span>
              <span className="label">{t("preview.points")}</span>
            </div>
            <div className="stat">
              <span className="value" data-testid="sweep-preview-requests">
                {untilStopped ? "∞" : formatInteger(preview.requestCount)}
              </span>
              <span className="label">
                {t(runs > 1 ? "preview.requestsPerRun" : "preview.requests")}
              </span>
            </div>
            {runs > 1 ? (
              <div className="stat">
                <span className="value">{runs}</span>
                <span className="label">{t("preview.runs")}</span>
              </div>
            ) : null}
          </div>
          <p className="muted small">
            {untilStopped
              ? t("preview.untilStopped")
              : preview.durationMs === null
                ? t("preview.durationUnknown")
                : t("preview.duration", { duration: formatDuration(preview.durationMs) })}
          </p>
          <table className="data compact">
            <thead>
              <tr>
                <th className="number">#</th>
                <th className="number">{t("preview.clients")}</th>
                <th className="number">{t("preview.samples")}</th>
                <th className="number">{t("preview.size")}</th>
                <th className="number">{t("preview.bytes")}</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((point, index) => (
                <tr key={index}>
                  <td className="number muted">{index + 1}</td>
                  <td className="number">{formatInteger(point.clients)}</td>
                  <td className="number">
                    {point.samples === UNTIL_STOPPED_SAMPLES ? "∞" : formatInteger(point.samples)}
                  </td>
                  <td className="number">{formatSize(point.objectSizeBytes)}</td>
                  <td className="number" data-testid="sweep-preview-bytes">
                    {point.samples === UNTIL_STOPPED_SAMPLES
                      ? "—"
                      : formatSize(point.samples * point.objectSizeBytes)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {points.length > shown.length ? (
            <p className="muted small">
              {t("preview.more", { count: points.length - shown.length })}
            </p>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
