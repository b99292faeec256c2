/** `pnpm typecheck`: the type check of every layer, each under its own compiler config. */
import { runChecks, TYPE_CHECK_CHECKS } from "./test-steps.ts";

process.exitCode = (await runChecks(TYPE_CHECK_CHECKS)).failed > 0 ? 1 : 0;
