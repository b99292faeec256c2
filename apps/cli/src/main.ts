#!/usr/bin/env node
import "./young-generation.ts";
import { main } from "./cli-main.ts";

// `taillab runs list | head` closes the pipe early: that is the reader's choice, not a failure.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2));
