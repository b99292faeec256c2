import type { ConnectionReport } from "@taillab/api";
import { useTranslation } from "react-i18next";
import { formatLatency } from "../../shared/display-format.ts";
import { useSay } from "../../shared/said.ts";
import { CheckIcon, CrossIcon, DashIcon } from "../../shared/icons.tsx";
import { bucketIsMissing, type ConnectionTestState } from "./connection-test.ts";

const CHECK_MARK = { pass: <CheckIcon />, fail: <CrossIcon />, skipped: <DashIcon /> } as const;

/**
 * The outcome of a connection test: a verdict a student can act on (the backend's sentence names
 * the endpoint and what to do), the checks that led to it, and the timed probe requests.
 */
export function ConnectionVerdict({
  test,
  onCreateBucket,
}: {
  test: ConnectionTestState;
  /** Offered when the bucket does not exist: creates it and tests again. */
  onCreateBucket?: () => void;
}) {
  const { t } = useTranslation("endpoints");
  const say = useSay();
  if (test.pending) {
    return (
      <div className="verdict pending" data-testid="connection-pending" role="status">
        <span className="spinner" aria-hidden="true" />
        {t("verdict.testing")}
      </div>
    );
  }
  if (test.error !== null) {
    return (
      <div
        className="verdict error"
        data-testid="connection-verdict"
        data-verdict="error"
        role="alert"
      >
        <strong className="verdict-title">
          {CHECK_MARK.fail} {t("verdict.error")}
        </strong>
        <p className="verdict-message">{test.error}</p>
      </div>
    );
  }
  if (!test.report) return null;
  const report: ConnectionReport = test.report;
  const ok = report.verdict === "ok";
  return (
    <div
      className={`verdict ${ok ? "ok" : "error"}`}
      data-testid="connection-verdict"
      data-verdict={report.verdict}
      role={ok ? "status" : "alert"}
    >
      <strong className="verdict-title">
        {ok ? CHECK_MARK.pass : CHECK_MARK.fail} {t(`verdict.${report.verdict}`)}
      </strong>
      <p className="verdict-message">{say(report)}</p>
      {onCreateBucket && bucketIsMissing(report) ? (
        <p>
          <button
            type="button"
            className="primary small"
            data-testid="create-bucket"
            onClick={onCreateBucket}
          >
            {t("verdict.createBucket")}
          </button>
        </p>
      ) : null}
      <ul className="check-list">
        {report.checks.map((check) => {
          const state = check.ok === null ? "skipped" : check.ok ? "pass" : "fail";
          return (
            <li key={check.name} data-state={state}>
              <span className="check-mark" aria-hidden="true">
                {CHECK_MARK[state]}
              </span>
              <span className="check-name">{t(`verdict.checks.${check.name}`)}</span>
              <span className="muted">
                {check.ok === null
                  ? t("verdict.notTried")
                  : say({ ...check, message: check.detail })}
              </span>
            </li>
          );
        })}
      </ul>
      <dl className="verdict-facts">
        <dt>{t("verdict.server")}</dt>
        <dd className="mono" translate={report.server === null ? undefined : "no"}>
          {report.server ?? t("verdict.noServer")}
        </dd>
        {report.timings.length > 0 ? (
          <>
            <dt>{t("verdict.timings")}</dt>
            <dd className="timings">
              {report.timings.map((timing, index) => (
                <span key={`${timing.op}-${index}`} className="badge">
                  {timing.op} {formatLatency(timing.latencyMs)}
                </span>
              ))}
            </dd>
          </>
        ) : null}
      </dl>
    </div>
  );
}
