import { useState } from "react";
import { useTranslation } from "react-i18next";
import { InlineTextForm } from "./inline-text-form.tsx";
import { isSeriesTag, useTagText } from "./series-tag.ts";

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
  const tagText = useTagText();
  return (
    <span className="chips" data-testid="run-tags">
      {tags.map((tag) => (
        <span
          key={tag}
          className="chip"
          data-testid="run-tag"
          data-tag={tag}
          // A name a person gave is shown as given; a series' label is the app's own text.
          translate={isSeriesTag(tag) ? undefined : "no"}
        >
          {tagText(tag)}
          {onRemove ? (
            <button
              type="button"
              className="chip-remove"
              data-testid="run-tag-remove"
              aria-label={t("edit.removeTag", { tag: tagText(tag) })}
              title={t("edit.removeTag", { tag: tagText(tag) })}
              onClick={() => void onRemove(tag)}
            >
              ×
            </button>
          ) : null}
        </span>
      ))}
      {onAdd && adding ? (
        <InlineTextForm
          label={t("edit.newTag")}
          placeholder={t("edit.newTag")}
          maxLength={50}
          testIdPrefix="run-tag"
          inputClassName="chip-input"
          submitText={t("edit.add")}
          submitClassName="small"
          // A tag the run already has is taken as it is.
          onSubmit={async (tag) => tags.includes(tag) || onAdd(tag)}
          onDone={() => setAdding(false)}
        />
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
