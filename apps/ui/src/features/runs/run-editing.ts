import { useState } from "react";
import { useRuns } from "./runs-store.ts";

/**
 * The edits a run takes in place, wherever it is shown (a library row, the run's header): its
 * name, tags and notes through the runs store, and whether the name or the notes editor is open.
 */
export function useRunEditing(runId: string) {
  const [renaming, setRenaming] = useState(false);
  const [editingNotes, setEditingNotes] = useState(false);
  const { rename, addTag, removeTag, setNotes } = useRuns.getState();
  return {
    renaming,
    setRenaming,
    editingNotes,
    setEditingNotes,
    rename: (name: string) => rename(runId, name),
    addTag: (tag: string) => addTag(runId, tag),
    removeTag: (tag: string) => removeTag(runId, tag),
    setNotes: (notes: string) => setNotes(runId, notes),
  };
}
