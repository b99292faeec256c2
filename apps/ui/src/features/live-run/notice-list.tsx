import { visibleText } from "@taillab/core";
import { isBuiltinProfileName, type RunNotice } from "@taillab/api";
import { formatInteger } from "@taillab/report";
import type { TFunction } from "i18next";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatDuration } from "../../shared/display-format.ts";
import { failureText, useSay, type Said } from "../../shared/said.ts";
import { isRunActive, useLiveRun } from "./live-run-store.ts";

/** A notice the backend sent as data, in the UI's language. */
export function noticeText(
  notice: RunNotice,
  t: TFunction<"live">,
  language: string,
  say: (said: Said) => string,
): string {
  switch (notice.code) {
    case "unhedgedOps":
      return t("noticeText.unhedgedOps", {
        mode: t(`mode.${notice.params.mode}`),
        ops: notice.params.ops.join(", "),
      });
    case "backupsShareReplica":
      return t("noticeText.backupsShareReplica", { mode: t(`mode.${notice.params.mode}`) });
    case "testbedStarted":
      return t("noticeText.testbedStarted", {
        urls: notice.params.urls.join(", "),
        // A profile object of the spec's own is sent as "custom": said in the UI's words.
        profile: isBuiltinProfileName(notice.params.profile)
          ? notice.params.profile
          : t("noticeText.customProfile"),
        seed: notice.params.seed,
      });
    case "cleanupLeftovers":
      return t("noticeText.cleanupLeftovers", {
        count: notice.params.objects,
        objects: formatInteger(notice.params.objects),
      });
    case "serverLost": {
      const { runStartEpochMs, sinceMs, silentMs, failures, lastError, phase } = notice.params;
      // A lone client's silence is one request, not a row of them.
      const key = failures === 1 ? "noticeText.serverLostOneRequest" : "noticeText.serverLost";
      return t(key, {
        time: new Intl.DateTimeFormat(language, { timeStyle: "medium" }).format(
          new Date(runStartEpochMs + sinceMs),
        ),
        into: formatDuration(sinceMs),
        silent: formatDuration(silentMs),
        failures: formatInteger(failures),
        error: visibleText(lastError),
        phase:
          phase === "mix"
            ? t("noticeText.mixPhase")
            : phase === "prepare"
              ? t("noticeText.preparePhase")
              : phase,
      });
    }
    case "serverProbe": {
      const { runStartEpochMs, deadlineMs } = notice.params;
      return t("noticeText.serverProbe", {
        time: new Intl.DateTimeFormat(language, { timeStyle: "medium" }).format(
          new Date(runStartEpochMs + deadlineMs),
        ),
      });
    }
    case "serverBack":
      return t("noticeText.serverBack");
    case "serverGone": {
      const { probeError, phases, repetitions = 0, points } = notice.params;
      const notRun = [
        ...(phases.length > 0
          ? [t("noticeText.notRunPhases", { count: phases.length, phases: phases.join(", ") })]
          : []),
        ...(repetitions > 0 ? [t("noticeText.notRunRepetitions", { count: repetitions })] : []),
        ...(points > 0 ? [t("noticeText.notRunPoints", { count: points })] : []),
      ];
      return notRun.length > 0
        ? t("noticeText.serverGoneNotRun", {
            error: probeError,
            notRun: notRun.join(t("noticeText.notRunAnd")),
          })
        : t("noticeText.serverGone", { error: probeError });
    }
    case "bucketCreated":
      return t("noticeText.bucketCreated", notice.params);
    case "preflightRetrying":
      return t("noticeText.preflightRetrying", {
        url: notice.params.url,
        error: visibleText(notice.params.error),
        time: new Intl.DateTimeFormat(language, { timeStyle: "medium" }).format(
          new Date(notice.params.until),
        ),
      });
    case "tlsUnchecked":
      return t("noticeText.tlsUnchecked", notice.params);
    case "cleanupIncomplete":
      return t("noticeText.cleanupIncomplete", {
        objects: formatInteger(notice.params.objects),
        uploads: formatInteger(notice.params.uploads),
        buckets: formatInteger(notice.params.buckets),
        error: visibleText(notice.params.error),
      });
    case "jobSubmitted":
      return t("noticeText.jobSubmitted", notice.params);
    case "distributedStopping":
      return t("noticeText.distributedStopping");
    case "cleanupFailed":
      return t("noticeText.cleanupFailed", { reason: failureText(notice.params.reason, say) });
    case "modesNotRun":
      return t("noticeText.modesNotRun", {
        count: notice.params.modes.length,
        modes: notice.params.modes.map((mode) => t(`mode.${mode}`)).join(", "),
      });
    case "modeCouldNotStart":
      return t("noticeText.modeCouldNotStart", {
        mode: t(`mode.${notice.params.mode}`),
        reason: failureText(notice.params.reason, say),
      });
    case "jobNotDeleted":
      return t("noticeText.jobNotDeleted", notice.params);
    case "folderUnreadable":
      return t("noticeText.folderUnreadable", notice.params);
    case "goneNotWritten":
      return t("noticeText.goneNotWritten", notice.params);
    case "runFolderLeft":
      return t("noticeText.runFolderLeft", notice.params);
    case "negativeIntervals":
      return t("noticeText.negativeIntervals", {
        op: notice.params.op,
        intervals: formatInteger(notice.params.intervals),
      });
    case "progressNotWritten":
      return t("noticeText.progressNotWritten", notice.params);
    case "podsNotStarting":
      return t("noticeText.podsNotStarting", { reasons: visibleText(notice.params.reasons) });
  }
}

/** What the backend said during the run (a replica down, a hedge budget exhausted…). */
export function NoticeList() {
  const { t, i18n } = useTranslation("live");
  const say = useSay();
  const notices = useLiveRun((state) => state.notices);
  const active = useLiveRun(isRunActive);
  if (notices.length === 0) return null;
  const last = notices.at(-1);
  return (
    <section className="card" data-testid="live-notices">
      <h2>{t("notices")}</h2>
      <ul className="notice-list">
        {notices.map((entry) => (
          <li key={entry.id} data-code={entry.notice?.code}>
            {entry.notice ? noticeText(entry.notice, t, i18n.language, say) : entry.message}
            {active && entry === last && entry.notice?.code === "serverProbe" ? (
              <ProbeCountdown
                endsAtMs={entry.notice.params.runStartEpochMs + entry.notice.params.deadlineMs}
              />
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The seconds until a run whose server is silent ends, unless the probe gets an answer. */
function ProbeCountdown({ endsAtMs }: { endsAtMs: number }) {
  const { t } = useTranslation("live");
  const [nowMs, setNowMs] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNowMs(Date.now()), 250);
    return () => clearInterval(timer);
  }, []);
  const seconds = Math.max(0, Math.ceil((endsAtMs - nowMs) / 1000));
  return (
    <strong className="probe-countdown" data-testid="probe-countdown" data-seconds={seconds}>
      {" "}
      {t("noticeText.probeCountdown", { seconds })}
    </strong>
  );
}
