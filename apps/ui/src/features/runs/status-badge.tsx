import type { RunStatus } from "@taillab/api";
import { useTranslation } from "react-i18next";

const TONE: Record<RunStatus, string> = {
  complete: "success",
  stopped: "warning",
  serverLost: "warning",
  running: "",
  interrupted: "warning",
  failed: "danger",
};

/** A run's status; interrupted and failed runs carry a sign too, not only a colour. */
export function StatusBadge({ status }: { status: RunStatus }) {
  const { t } = useTranslation("runs");
  const sign =
    status === "interrupted" || status === "stopped" || status === "serverLost"
      ? "⚠ "
      : status === "failed"
        ? "✕ "
        : "";
  return (
    <span className={`badge ${TONE[status]}`.trim()} data-testid="run-status" data-status={status}>
      {sign}
      {t(`status.${status}`)}
    </span>
  );
}
