import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { modKeyLabel, SHORTCUT_VIEWS } from "./shortcuts.ts";

/** The "?" dialog: every shortcut, with the keys as this machine labels them. */
export function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const previous = document.activeElement;
    close.current?.focus();
    // Focus goes back where it was, so keyboard users do not lose their place.
    return () => {
      if (previous instanceof HTMLElement) previous.focus();
    };
  }, []);

  const mod = modKeyLabel();
  const rows: [string[][], string][] = [
    [[[mod, "Enter"]], t("shortcuts.run")],
    [[[mod, "."], ["Esc"]], t("shortcuts.stop")],
    ...SHORTCUT_VIEWS.map((view, index): [string[][], string] => [
      [["Alt", String(index + 1)]],
      t("shortcuts.go", { screen: t(`nav.${view}`) }),
    ]),
    [[["?"]], t("shortcuts.help")],
  ];

  return (
    <div
      className="dialog-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        className="dialog card"
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcuts-title"
        data-testid="shortcuts-help"
        onKeyDown={(event) => {
          if (event.key === "Escape" || event.key === "?") {
            event.preventDefault();
            onClose();
          }
        }}
      >
        <header className="dialog-header">
          <h2 id="shortcuts-title">{t("shortcuts.title")}</h2>
          <button
            ref={close}
            type="button"
            className="ghost"
            data-testid="shortcuts-close"
            onClick={onClose}
          >
            {t("shortcuts.close")}
          </button>
        </header>
        <table className="data shortcuts-table">
          <tbody>
            {rows.map(([combos, what]) => (
              <tr key={what}>
                <td className="keys">
                  {combos.map((combo, index) => (
                    <span key={combo.join("+")}>
                      {index > 0 ? <span className="muted"> / </span> : null}
                      {combo.map((key, keyIndex) => (
                        <span key={key}>
                          {keyIndex > 0 ? "+" : null}
                          <kbd>{key}</kbd>
                        </span>
                      ))}
                    </span>
                  ))}
                </td>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="muted small">{t("shortcuts.escapeNote")}</p>
      </div>
    </div>
  );
}
