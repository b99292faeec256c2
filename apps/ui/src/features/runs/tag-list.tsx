import { useState } from "react";
import { useTranslation } from "react-i18next";

/** A run's tags as chips; with handlers, each chip can be removed and a tag added. */
export function TagList({
  tags,
  onAdd,
  onRemove,
}: {
  tags: readonly string[];
  onAdd?: (tag: string) => Promise<boolean>;
  onRemove?: (tag: string) => Promise<boolean>;
}) {
  const { t } = useTranslation("runs");
  const [adding, setAdding] = useState(false);
  const [draft, setDraft] = useState("");
  const add = async () => {
    const tag = draft.trim();
    if (!tag || !onAdd) return;
    if (tags.includes(tag) || (await onAdd(tag))) {
      setDraft("");
      setAdding(false);
    }
  };
  return (
    <span className="chips" data-testid="run-tags">
      {tags.map((tag) => (
        <span key={tag} className="chip" data-testid="run-tag" data-tag={tag}>
          {tag}
          {onRemove ? (
            <button
              type="button"
              className="chip-remove"
              data-testid="run-tag-remove"
              aria-label={t("edit.removeTag", { tag })}
              title={t("edit.removeTag", { tag })}
              onClick={() => void onRemove(tag)}
            >
              ×
            </button>
          ) : null}
        </span>
      ))}
      {onAdd && adding ? (
        <form
          className="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            void add();
          }}
          onKeyDown={(event) => {
            if (event.key === "Escape") setAdding(false);
          }}
        >
          <input
            className="chip-input"
            aria-label={t("edit.newTag")}
            placeholder={t("edit.newTag")}
            data-testid="run-tag-input"
            value={draft}
            maxLength={50}
            autoFocus
            onChange={(event) => setDraft(event.target.value)}
          />
          <button
            type="submit"
            className="small"
            data-testid="run-tag-save"
            disabled={!draft.trim()}
          >
            {t("edit.add")}
          </button>
        </form>
      ) : onAdd ? (
        <button
          type="button"
          className="chip chip-add"
          data-testid="run-tag-add"
          onClick={() => setAdding(true)}
        >
          + {t("edit.tag")}
        </button>
      ) : null}
    </span>
  );
}
