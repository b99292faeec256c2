import { AppError, REQUESTS_CSV_DOWNLOAD_PATH, type ExportInput } from "@taillab/api";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../../app/api.ts";
import { useAppInfo } from "../../app/app-info-store.ts";
import { useSettings } from "../../app/settings-store.ts";
import { errorText } from "../../shared/said.ts";
import { downloadFile, downloadFromHost } from "../../shared/download-file.ts";

type ExportKind = "csv" | "csv-per-second" | "csv-requests" | "json" | "html";

/** The browser host serves the per-request CSV as a download of its own. */
async function hostStreamsDownloads(): Promise<boolean> {
  await useAppInfo.getState().load();
  return useAppInfo.getState().info?.host === "web";
}

/**
 * Export buttons for one run or several: the backend renders the file (the same CSV, JSON and
 * HTML as `taillab report`), the browser downloads it. Several runs give one comparison, with
 * the run at `baselineIndex` as its baseline; HTML reports are in the UI's language.
 */
export function ExportMenu({
  runIds,
  baselineIndex = 0,
  perRequestCsv = false,
  testIdPrefix = "",
  label,
}: {
  runIds: readonly string[];
  baselineIndex?: number;
  /** One row per request: for a single run only. */
  perRequestCsv?: boolean;
  /** Distinguishes the detail screen's buttons (export-csv) from the library's and compare's. */
  testIdPrefix?: string;
  label?: string;
}) {
  const { t } = useTranslation("runs");
  const language = useSettings((state) => state.language);
  const [busy, setBusy] = useState<ExportKind | null>(null);
  const [error, setError] = useState<string | null>(null);
  const kinds: ExportKind[] = perRequestCsv
    ? ["csv", "csv-per-second", "csv-requests", "json", "html"]
    : ["csv", "csv-per-second", "json", "html"];

  const run = async (kind: ExportKind) => {
    const input: ExportInput = {
      runIds: [...runIds],
      format: kind === "csv-requests" || kind === "csv-per-second" ? "csv" : kind,
      requests: kind === "csv-requests",
      perSecond: kind === "csv-per-second",
      language,
      baselineIndex,
    };
    setBusy(kind);
    setError(null);
    try {
      const [runId] = runIds;
      const files = window.taillabFiles;
      if (kind === "csv-requests" && runId !== undefined && files) {
        // The desktop app: its main process writes the chunks where the user chooses.
        const answer = await files.saveRequestsCsv({ runId });
        if (!answer.ok) throw new AppError(answer.error);
        return;
      }
      if (kind === "csv-requests" && runId !== undefined && (await hostStreamsDownloads())) {
        // A run of millions of requests: the host streams it, never one answer in memory.
        downloadFromHost(`${REQUESTS_CSV_DOWNLOAD_PATH}?${new URLSearchParams({ runId })}`);
        return;
      }
      downloadFile(await api().exportReport(input));
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="export-menu" role="group" aria-label={label ?? t("export.title")}>
      <span className="export-label muted">{label ?? t("export.title")}</span>
      {kinds.map((kind) => (
        <button
          key={kind}
          type="button"
          className="small"
          data-testid={`${testIdPrefix}export-${kind}`}
          disabled={runIds.length === 0 || busy !== null}
          title={t(`export.hint.${kind}`)}
          onClick={() => void run(kind)}
        >
          {busy === kind ? t("export.working") : t(`export.kind.${kind}`)}
        </button>
      ))}
      {error ? (
        <span className="field-error" role="alert" data-testid={`${testIdPrefix}export-error`}>
          {error}
        </span>
      ) : null}
    </div>
  );
}
