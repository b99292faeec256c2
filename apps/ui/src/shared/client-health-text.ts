import type { ClientVerdict } from "@taillab/api";
import { clientAdvice } from "@taillab/core";
import type { TFunction } from "i18next";

/** Why the client was the bottleneck and what to try, in the UI's language. */
export function verdictText(
  t: TFunction<"client">,
  verdict: ClientVerdict,
  figures: { availableCores: number; stallShare: number },
): { reasons: string; advice: string } {
  const reasons = verdict.reasons
    .map((reason) =>
      t(`reason.${reason}`, {
        cores: figures.availableCores,
        share: (figures.stallShare * 100).toFixed(0),
      }),
    )
    .join("; ");
  const advice = clientAdvice(verdict)
    .map((each) => t(`advice.${each}`))
    .join(t("or"));
  return { reasons, advice: t("try", { advice }) };
}
