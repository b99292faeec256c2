import type { PhaseSummary, RunMeta } from "@taillab/api";
import { coordinatedOmissionNote, openLoopFlags, serverAndStall } from "@taillab/core";
import { useTranslation } from "react-i18next";
import { verdictText } from "../../shared/client-health-text.ts";
import { PlayIcon } from "../../shared/icons.tsx";
import { useExperimentBuilder } from "../experiments/experiment-builder-store.ts";
import { openLoopDraft } from "./run-again.ts";
import { useRunDetail } from "./run-detail-store.ts";

/**
 * Whether TailLab's own client kept up in a phase, an open loop's arrivals, and what a closed
 * loop leaves out, with its open-loop equivalent as flags and as a button that runs it.
 */
export function ClientHealthCard({ phase, meta }: { phase: PhaseSummary; meta: RunMeta }) {
  const { t } = useTranslation("client");
  const origin = useRunDetail((state) => (state.runId === meta.id ? state.origin : null));
  const endpointId = origin?.endpointId ?? null;
  const busy = useExperimentBuilder((state) => state.busy);
  const client = phase.client;
  const note = coordinatedOmissionNote(phase);
  if (!client && !note) return null;
  const verdict = client ? verdictText(t, client.verdict, client.figures) : null;
  const stall = phase.tail ? serverAndStall(phase, "p99") : null;
  const strongText =
    note?.strength !== "strong"
      ? null
      : note.gapMs > 0 && phase.latencyMs && note.gapMs >= 10 * phase.latencyMs.p99
        ? t("omission.strongGap", { gapMs: note.gapMs, p99Ms: phase.latencyMs.p99.toFixed(1) })
        : t("omission.strongMax", { ratio: note.maxOverP99 });
  return (
    <section className="card section" data-testid="client-health">
      {client ? (
        <p
          className={client.verdict.keptUp ? "muted" : "banner warning"}
          data-testid="client-verdict"
          data-kept-up={client.verdict.keptUp}
        >
          {client.verdict.keptUp ? (
            t("keptUp")
          ) : (
            <>
              <strong>{t("bottleneckPhase")}</strong> {verdict?.reasons}. {verdict?.advice}
            </>
          )}
        </p>
      ) : null}
      {client?.boundShards?.length ? (
        <p className="banner warning" data-testid="client-bound-shards">
          {t("boundShards", { shards: client.boundShards.join(", ") })}
        </p>
      ) : null}
      {stall && stall.clientStallMs !== null && stall.clientStallMs > 0 ? (
        <p className="muted" data-testid="client-tail-stall">
          {t("tailStall", {
            serverMs: (phase.tail?.p99.serverMs ?? 0).toFixed(1),
            stallMs: stall.clientStallMs.toFixed(1),
          })}
        </p>
      ) : null}
      {client?.arrivals === "kept" ? (
        <p className="muted">{t("arrivalsKept", { missed: client.figures.missedStarts })}</p>
      ) : null}
      {client?.arrivals === "shed" ? (
        <p className="muted">{t("shed", { count: client.figures.shed })}</p>
      ) : null}
      {note ? (
        <div
          className={note.strength === "strong" ? "banner warning" : undefined}
          data-testid="omission-note"
          data-strength={note.strength}
        >
          <p>{strongText ?? t("omission.note")}</p>
          <p className="muted">
            {t("omission.rerun")} {/* flags are typed as they are, in either language */}
            <code translate="no">{openLoopFlags(note)}</code>{" "}
            <button
              type="button"
              data-testid="run-open-loop"
              disabled={endpointId === null || busy !== null}
              onClick={() => {
                if (endpointId === null) return;
                const draft = openLoopDraft(
                  meta,
                  { endpointId, replicaEndpointIds: origin?.replicaEndpointIds },
                  note.openLoopRateHz,
                );
                void useExperimentBuilder.getState().runDraft(draft);
              }}
            >
              <PlayIcon />
              {t("omission.button", { rate: note.openLoopRateHz })}
            </button>
          </p>
        </div>
      ) : null}
    </section>
  );
}
