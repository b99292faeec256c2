import { describe, expect, it } from "vitest";
import { formatRunFolderUri, parseRunFolderUri } from "./run-folder-uri.ts";

describe("a distributed run's folder", () => {
  it.each([
    ["s3://loadgen/taillab/r1/", { bucket: "loadgen", prefix: "taillab/r1/", runId: "r1" }],
    ["s3://loadgen/r1", { bucket: "loadgen", prefix: "r1/", runId: "r1" }],
    ["s3://loadgen//a//b/", { bucket: "loadgen", prefix: "a/b/", runId: "b" }],
  ])("reads %s", (text, folder) => {
    expect(parseRunFolderUri(text)).toEqual(folder);
    expect(formatRunFolderUri(folder)).toBe(`s3://${folder.bucket}/${folder.prefix}`);
  });

  it.each([
    ["/tmp/runs", /expected s3:\/\/BUCKET\/PREFIX\/RUN\//],
    ["s3://loadgen/", /expected s3:\/\//],
    ["s3://Load_Gen/r1/", /may hold only lowercase letters/],
    ["s3://loadgen/runs/.hidden/", /names the run/],
  ])("refuses %s", (text, reason) => {
    const parsed = parseRunFolderUri(text);
    expect("problem" in parsed && parsed.problem).toMatch(reason);
  });
});
