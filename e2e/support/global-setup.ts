import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { REPO_ROOT } from "./processes.ts";

/**
 * The UI is served from its production build, as users get it. `pnpm test` builds it once for
 * its Playwright passes and says so (E2E_UI_BUILT): each pass would build it again here.
 */
export default function globalSetup(): void {
  if (process.env.E2E_UI_BUILT === "1") return;
  const uiDir = join(REPO_ROOT, "apps", "ui");
  const build = spawnSync(
    join(uiDir, "node_modules", ".bin", "vite"),
    ["build", "--logLevel", "warn"],
    {
      cwd: uiDir,
      stdio: "inherit",
    },
  );
  if (build.status !== 0) throw new Error("e2e: building the UI (vite build in apps/ui) failed");
}
