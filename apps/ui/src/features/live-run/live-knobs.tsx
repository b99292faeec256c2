import {
  RequestModeSchema,
  type HedgeDelaySpec,
  type LiveTuning,
  type LiveTuningInput,
} from "@taillab/api";
import { formatMs, formatPercent } from "@taillab/report";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useShallow } from "zustand/react/shallow";
import { formatKnobMs, formatKnobPercent } from "../../shared/display-format.ts";
import { hedgeDelayText, HEDGE_DELAY_CHOICES, liveNow } from "./live-knobs-model.ts";
import { isRunActive, useLiveRun } from "./live-run-store.ts";

/** A slider commits its value this long after the hand stops, so a drag is one change. */
const SLIDER_SETTLE_MS = 300;

/**
 * The live tail lab's knobs, for a teacher to move while the run goes on: the testbed's stalls
 * and service time, its replicas, the request mode and the hedge's delay and budget. Each change
 * reaches the testbed and the engine at once and becomes a marker on the timeline; the last
 * second's figures beside them answer within two seconds.
 */
export function LiveKnobs() {
  const { t } = useTranslation("live");
  const tuning = useLiveRun((state) => state.tuning);
  const retuning = useLiveRun((state) => state.retuning);
  const active = useLiveRun(isRunActive);
  const retune = useLiveRun((state) => state.retune);
  if (!tuning || !active) return null;
  const shown: LiveTuning = { ...tuning, ...retuning };
  const change = (knob: Partial<LiveTuningInput>) => void retune(knob);
  const hedging = shown.mode === "hedged" || shown.mode === "adaptive";

  return (
    <section
      className="card live-knobs"
      data-testid="live-knobs"
      data-mode={shown.mode}
      data-applying={retuning !== null}
      aria-labelledby="live-knobs-title"
    >
      <header className="card-header">
        <div>
          <h2 id="live-knobs-title">{t("knobs.title")}</h2>
          <p className="muted small">{t("knobs.hint")}</p>
        </div>
        <LiveNow />
      </header>
      <div className="knob-row" role="group" aria-label={t("knobs.mode")}>
        <span className="knob-label">{t("knobs.mode")}</span>
        <span className="segmented">
          {RequestModeSchema.options.map((mode) => (
            <button
              key={mode}
              type="button"
              className="chip"
              data-mode={mode}
              data-testid={`knob-mode-${mode}`}
              aria-pressed={shown.mode === mode}
              title={t(`knobs.modeHints.${mode}`)}
              onClick={() => change({ mode })}
            >
              {t(`mode.${mode}`)}
            </button>
          ))}
        </span>
      </div>
      <div className="knob-grid">
        <Slider
          knob="stallProbability"
          label={t("knobs.stallProbability")}
          value={shown.stallProbability * 100}
          max={10}
          step={0.5}
          text={formatKnobPercent}
          onCommit={(value) => change({ stallProbability: value / 100 })}
        />
        <Slider
          knob="stallMs"
          label={t("knobs.stallMs")}
          value={shown.stallMs}
          max={2000}
          step={50}
          text={formatKnobMs}
          onCommit={(stallMs) => change({ stallMs })}
        />
        <Slider
          knob="serviceMs"
          label={t("knobs.serviceMs")}
          value={shown.serviceMs}
          max={100}
          step={0.5}
          text={formatKnobMs}
          onCommit={(serviceMs) => change({ serviceMs })}
        />
        <div className="knob" role="group" aria-label={t("knobs.replicas")}>
          <span className="knob-label">{t("knobs.replicas")}</span>
          <span className="segmented">
            {REPLICA_CHOICES.map((replicas) => (
              <button
                key={replicas}
                type="button"
                className="chip"
                data-testid={`knob-replicas-${replicas}`}
                aria-pressed={shown.replicas === replicas}
                onClick={() => change({ replicas })}
              >
                {replicas}
              </button>
            ))}
          </span>
        </div>
        <label className="knob" data-disabled={!hedging || undefined}>
          <span className="knob-label">{t("knobs.hedgeDelay")}</span>
          <select
            data-testid="knob-hedge-delay"
            value={hedgeDelayText(shown.hedgeDelay)}
            onChange={(event) => {
              const choice = HEDGE_DELAY_CHOICES.find(
                (delay) => hedgeDelayText(delay) === event.target.value,
              );
              if (choice) change({ hedgeDelay: choice as HedgeDelaySpec });
            }}
          >
            {HEDGE_DELAY_CHOICES.map((delay) => (
              <option key={hedgeDelayText(delay)} value={hedgeDelayText(delay)}>
                {hedgeDelayText(delay)}
              </option>
            ))}
          </select>
        </label>
        <Slider
          knob="hedgeBudgetPercent"
          label={t("knobs.hedgeBudget")}
          value={shown.hedgeBudgetPercent}
          max={100}
          step={1}
          disabled={!hedging}
          text={formatKnobPercent}
          onCommit={(hedgeBudgetPercent) => change({ hedgeBudgetPercent })}
        />
      </div>
    </section>
  );
}

const REPLICA_CHOICES = [1, 2, 3, 4] as const;

/** The last whole second: how the knobs' effect reads in figures, beside the chart. */
function LiveNow() {
  const { t } = useTranslation("live");
  const now = useLiveRun(useShallow(liveNow));
  if (!now) return null;
  return (
    <dl
      className="live-now"
      data-testid="live-now"
      data-at-ms={now.startMs}
      data-p50-ms={now.p50Ms ?? undefined}
      data-p99-ms={now.p99Ms ?? undefined}
      data-p999-ms={now.p999Ms ?? undefined}
      data-extra-percent={now.extraPct ?? undefined}
    >
      <dt>{t("knobs.nowP99")}</dt>
      <dd>{now.p99Ms === null ? "—" : `${formatMs(now.p99Ms)} ms`}</dd>
      <dt>{t("knobs.nowP999")}</dt>
      <dd>{now.p999Ms === null ? "—" : `${formatMs(now.p999Ms)} ms`}</dd>
      <dt>{t("knobs.nowExtra")}</dt>
      <dd className="cost">{now.extraPct === null ? "—" : `${formatPercent(now.extraPct)} %`}</dd>
    </dl>
  );
}

/**
 * A range input that follows the hand at once and commits once it rests (or is let go: a key
 * or the pointer released commits at once, so the chart does not wait out the rest), and
 * follows the knob's value when it changes elsewhere (another window, the backend's answer).
 */
function Slider({
  knob,
  label,
  value,
  max,
  step,
  text,
  disabled = false,
  onCommit,
}: {
  knob: keyof LiveTuning;
  label: string;
  value: number;
  max: number;
  step: number;
  text: (value: number) => string;
  disabled?: boolean;
  onCommit: (value: number) => void;
}) {
  const [moving, setMoving] = useState<number | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const shown = moving ?? value;
  const commit = (next: number) => {
    clearTimeout(timer.current);
    setMoving(null);
    if (next !== value) onCommit(next);
  };
  return (
    <label className="knob" data-disabled={disabled || undefined}>
      <span className="knob-label">
        {label} <strong data-testid={`knob-${knob}-value`}>{text(shown)}</strong>
      </span>
      <input
        type="range"
        data-testid={`knob-${knob}`}
        min={0}
        max={Math.max(max, value)}
        step={step}
        value={shown}
        onChange={(event) => {
          const next = Number(event.target.value);
          setMoving(next);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => commit(next), SLIDER_SETTLE_MS);
        }}
        onKeyUp={() => (moving === null ? undefined : commit(moving))}
        onPointerUp={() => (moving === null ? undefined : commit(moving))}
      />
    </label>
  );
}
