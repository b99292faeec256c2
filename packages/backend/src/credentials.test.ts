import { DEFAULT_CREDENTIALS, secretPlaceholder } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { resolveCredentials } from "./credentials.ts";

describe("credentials from the environment", () => {
  it("refuse a printed Secret's placeholder, naming the variable that still holds it", async () => {
    const env = {
      AWS_ACCESS_KEY_ID: secretPlaceholder("AWS_ACCESS_KEY_ID"),
      AWS_SECRET_ACCESS_KEY: secretPlaceholder("AWS_SECRET_ACCESS_KEY"),
    };
    await expect(resolveCredentials(DEFAULT_CREDENTIALS, { env }, "endpoint")).rejects.toThrow(
      "endpoint: AWS_ACCESS_KEY_ID holds the printed manifest's placeholder <fill in AWS_ACCESS_KEY_ID>: fill in the Secret's values before applying it",
    );
    const filled = { ...env, AWS_ACCESS_KEY_ID: "AKID", AWS_SECRET_ACCESS_KEY: "secret" };
    await expect(
      resolveCredentials(DEFAULT_CREDENTIALS, { env: filled }, "endpoint"),
    ).resolves.toEqual({ accessKeyId: "AKID", secretAccessKey: "secret" });
  });
});
