import { useTranslation } from "react-i18next";
import { useLiveRun } from "./live-run-store.ts";

/** What the backend said during the run (a replica down, a hedge budget exhausted…). */
export function NoticeList() {
  const { t } = useTranslation("live");
  const notices = useLiveRun((state) => state.notices);
  if (notices.length === 0) return null;
  return (
    <section className="card" data-testid="live-notices">
      <h2>{t("notices")}</h2>
      <ul className="notice-list">
        {notices.map((notice) => (
          <li key={notice.id}>{notice.message}</li>
        ))}
      </ul>
    </section>
  );
}
