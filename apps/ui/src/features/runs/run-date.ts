/** When a run was made, in the reader's language and time zone: `1 Mar 2025, 10:15`. */
export function formatRunDate(iso: string, language: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(
    date,
  );
}
