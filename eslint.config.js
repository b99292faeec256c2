import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/**
 * The dependency direction of ../shared/docs/ARCHITECTURE.md:
 *   api, core  <-  engine, store, report, testbed, kubernetes  <-  backend  <-  electron, apps/web, apps/cli
 * and apps/ui imports only api, core and report. Each layer lists what it may NOT import.
 */
const nodeBuiltins = { group: ["node:*"], message: "this layer is pure TS: no Node modules." };
/** @param {string[]} names @param {string} why */
const forbid = (names, why) => ({
  group: names.map((name) => `@taillab/${name}`),
  message: why,
});
/** @type {Record<string, object[]>} */
const layerRules = {
  "packages/api/src/**": [
    nodeBuiltins,
    forbid(["*"], "packages/api is the bottom layer and imports no other TailLab package."),
  ],
  "packages/core/src/**": [
    nodeBuiltins,
    forbid(
      ["core", "engine", "store", "report", "testbed", "kubernetes", "backend", "cli", "ui", "web"],
      "packages/core may import only @taillab/api.",
    ),
  ],
  "packages/report/src/**": [
    nodeBuiltins,
    forbid(
      ["engine", "store", "testbed", "kubernetes", "backend", "cli", "ui", "web"],
      "packages/report may import only @taillab/api and @taillab/core.",
    ),
  ],
  "packages/{engine,store,testbed,kubernetes}/src/**": [
    forbid(
      ["engine", "store", "report", "testbed", "kubernetes", "backend", "cli", "ui", "web"],
      "engine, store, report, testbed and kubernetes sit side by side: they import only api and core.",
    ),
  ],
  "packages/backend/src/**": [
    forbid(["backend", "cli", "ui", "web"], "packages/backend never imports a host."),
  ],
  "apps/ui/src/**": [
    nodeBuiltins,
    forbid(
      ["engine", "store", "testbed", "kubernetes", "backend", "cli", "web", "test-support"],
      "apps/ui runs in the browser: it imports only api, core and report, and reaches the backend through window.taillab.",
    ),
  ],
  "{apps/web,electron}/src/**": [
    forbid(
      ["ui", "cli", "engine", "store", "testbed", "kubernetes"],
      "hosts reach the engine through @taillab/backend.",
    ),
  ],
  "apps/cli/src/**": [
    forbid(
      ["ui", "web", "engine", "store", "testbed", "kubernetes"],
      "hosts reach the engine through @taillab/backend.",
    ),
  ],
};

export default tseslint.config(
  { ignores: ["**/node_modules/**", ".tools/**", "**/dist/**", "test-results/**", ".bench/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["apps/ui/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  ...Object.entries(layerRules).map(([files, patterns]) => ({
    files: [files],
    // Tests may reach sideways for real parts (e.g. engine tests start the testbed).
    ignores: ["**/*.test.ts", "**/test-support/**"],
    rules: { "no-restricted-imports": ["error", { patterns }] },
  })),
);
