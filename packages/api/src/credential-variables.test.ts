import { describe, expect, it } from "vitest";
import { englishOf } from "./coded-message.ts";
import { credentialVariableErrors, credentialVariableProblem } from "./credential-variables.ts";

describe("credentialVariableProblem", () => {
  it.each([
    ["accessKeyIdVar", "AWS_ACCESS_KEY_ID"],
    ["secretAccessKeyVar", "AWS_SECRET_ACCESS_KEY"],
    ["sessionTokenVar", "AWS_SESSION_TOKEN"],
    ["accessKeyIdVar", "MINIO_ACCESS_KEY_ID"],
    ["secretAccessKeyVar", "LAB_2_SECRET_ACCESS_KEY"],
    ["accessKeyIdVar", "CLI_ACCESS_KEY_ID"],
  ] as const)("%s may be %s", (role, name) => {
    expect(credentialVariableProblem(role, name)).toBeNull();
  });

  it.each([
    ["accessKeyIdVar", "TAILLAB_SECRETS_PASSPHRASE", /TailLab's own variables/],
    ["accessKeyIdVar", "TAILLAB_ACCESS_KEY_ID", /TailLab's own variables/],
    ["accessKeyIdVar", "HOME", /expected AWS_ACCESS_KEY_ID or another <PREFIX>_ACCESS_KEY_ID/],
    ["accessKeyIdVar", "ACCESS_KEY_ID", /not a credential variable/],
    ["accessKeyIdVar", "AWS_SECRET_ACCESS_KEY", /expected AWS_ACCESS_KEY_ID/],
    ["secretAccessKeyVar", "AWS_ACCESS_KEY_ID", /expected AWS_SECRET_ACCESS_KEY/],
    ["secretAccessKeyVar", "aws_secret_access_key", /upper-case letters/],
    ["secretAccessKeyVar", "_SECRET_ACCESS_KEY", /not a credential variable/],
    ["secretAccessKeyVar", "1_SECRET_ACCESS_KEY", /not a credential variable/],
    ["sessionTokenVar", "GITHUB_TOKEN", /expected AWS_SESSION_TOKEN/],
    ["sessionTokenVar", "MY-APP_SESSION_TOKEN", /not a credential variable/],
  ] as const)("%s may not be %s", (role, name, message) => {
    const problem = credentialVariableProblem(role, name);
    expect(problem && englishOf(problem)).toMatch(message);
  });
});

describe("credentialVariableErrors", () => {
  it("names every refused variable by its role", () => {
    expect(
      credentialVariableErrors({
        accessKeyIdVar: "PATH",
        secretAccessKeyVar: "AWS_SECRET_ACCESS_KEY",
        sessionTokenVar: "TAILLAB_SESSION_TOKEN",
      }).map((error) => error.field),
    ).toEqual(["accessKeyIdVar", "sessionTokenVar"]);
    expect(
      credentialVariableErrors({
        accessKeyIdVar: "AWS_ACCESS_KEY_ID",
        secretAccessKeyVar: "AWS_SECRET_ACCESS_KEY",
      }),
    ).toEqual([]);
  });
});
