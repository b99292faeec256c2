import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { CheckIcon } from "../../shared/icons.tsx";

type CopyState = "idle" | "copied" | "failed";

/** How long "Copied" stays on the button. */
const CONFIRMATION_MS = 2000;

/**
 * Copies text built on click (a table as s3bench-style text) to the clipboard, and says so on
 * the button for a moment; `data-copied` tells tests the same.
 */
export function CopyTextButton({
  text,
  label,
  testId,
}: {
  text: () => string;
  label: string;
  testId: string;
}) {
  const { t } = useTranslation("runs");
  const [state, setState] = useState<CopyState>("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <button
      type="button"
      className="small"
      data-testid={testId}
      data-copied={state === "copied"}
      aria-live="polite"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text());
          setState("copied");
        } catch {
          setState("failed");
        }
      }}
    >
      {state === "copied" ? (
        <>
          <CheckIcon /> {t("copy.copied")}
        </>
      ) : state === "failed" ? (
        t("copy.failed")
      ) : (
        label
      )}
    </button>
  );
}
