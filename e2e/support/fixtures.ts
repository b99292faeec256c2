import { test as base, expect, type Page } from "@playwright/test";
import {
  startControlPlane,
  startTaillabNodeAgent,
  type KubernetesControlPlane,
} from "@taillab/test-support";
import { join } from "node:path";
import {
  REPO_ROOT,
  startTestbedProcess,
  startWebHostProcess,
  type TestbedProcess,
  type WebHostProcess,
} from "./processes.ts";

const SCREENSHOT_DIR = join(REPO_ROOT, "test-results", "e2e", "screens");
/** Pictures of screens taller than this are cut off at it. */
const MAX_SCREENSHOT_HEIGHT = 8000;

interface Fixtures {
  /** The browser host with a fresh data folder, per test. */
  webHost: WebHostProcess;
  /** The latency profile of the `testbed` fixture; "fast" unless a spec uses another. */
  testbedProfile: string;
  /** A real signed S3 testbed in its own process, per test that asks for it. */
  testbed: TestbedProcess;
  /** The app opened in the browser, signed in with the launch token. */
  app: Page;
}

interface WorkerFixtures {
  /**
   * A real Kubernetes control plane on 127.0.0.1 (test-support's), with the test node agent
   * running its pods as this repository's CLI; one per worker that asks for it, as it takes a
   * while to start.
   */
  kubernetes: KubernetesControlPlane;
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a function asks for.
  webHost: async ({}, use) => {
    const host = await startWebHostProcess();
    await use(host);
    await host.stop();
  },
  testbedProfile: ["fast", { option: true }],
  testbed: async ({ testbedProfile }, use) => {
    const testbed = await startTestbedProcess({ profile: testbedProfile });
    await use(testbed);
    await testbed.stop();
  },
  kubernetes: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const cluster = await startControlPlane();
      try {
        const agent = await startTaillabNodeAgent(cluster.kubeconfig);
        try {
          await use(cluster);
        } finally {
          await agent.stop();
        }
      } finally {
        await cluster.stop();
      }
    },
    // Four server processes on a busy 2-core machine: their start is not the test's time.
    { scope: "worker", timeout: 180_000 },
  ],
  app: async ({ page, webHost }, use) => {
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`console error: ${message.text()}`);
    });
    await page.goto(webHost.url);
    await use(page);
    expect(problems, "the page logged no errors").toEqual([]);
  },
});

export { expect };

/**
 * Keeps a picture of a screen as a test artifact (test-results/e2e/screens/NAME.png; the headed
 * project's as NAME.headed.png, so the two runs of a test do not overwrite each other).
 */
export async function keepScreenshot(page: Page, name: string): Promise<void> {
  const project = test.info().project.name;
  const suffix = project === "headless" ? "" : `.${project}`;
  const path = join(SCREENSHOT_DIR, `${name}${suffix}.png`);
  // The app scrolls inside <main>, not the page, so a "full page" picture would stop at the
  // window's bottom edge: make the window as tall as the screen's content for the picture.
  const viewport = page.viewportSize();
  const overflow = await page.evaluate(() => {
    const main = document.querySelector<HTMLElement>(".app-main");
    return main ? main.scrollHeight - main.clientHeight : 0;
  });
  if (!viewport || overflow <= 0) {
    await page.screenshot({ path, fullPage: true });
    return;
  }
  await page.setViewportSize({
    width: viewport.width,
    height: Math.min(viewport.height + overflow, MAX_SCREENSHOT_HEIGHT),
  });
  try {
    // Charts resize on the next frames; take the picture once they have.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    await page.screenshot({ path });
  } finally {
    await page.setViewportSize(viewport);
  }
}
