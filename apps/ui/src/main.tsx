import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app.tsx";
import { loadCjkFont } from "./app/cjk-font.ts";
import { initI18n } from "./app/i18n.ts";
import "./app/theme.css";

void loadCjkFont();
initI18n();
createRoot(document.getElementById("root") as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
