import { expect, keepScreenshot, test } from "../support/fixtures.ts";
import { unusedPort } from "../support/free-port.ts";
import { EndpointsPage } from "../pages/endpoints-page.ts";

test.describe("Endpoints", () => {
  test("a student adds the lab's S3 server and the connection test says it is ready @headed", async ({
    app,
    testbed,
  }) => {
    const endpoints = new EndpointsPage(app);
    await endpoints.open();
    // A new user finds the embedded testbed there already.
    await expect(endpoints.row("Embedded testbed")).toBeVisible();
    await keepScreenshot(app, "endpoints-list");

    await endpoints.startAdd();
    await endpoints.fill({
      kind: "minio",
      name: "Lab server",
      url: testbed.urls[0],
      bucket: testbed.bucket,
      accessKeyId: testbed.accessKeyId,
      secret: testbed.secretAccessKey,
    });
    expect(await endpoints.testConnection()).toBe("ok");
    await expect(endpoints.verdict).toContainText("Connected");
    await keepScreenshot(app, "endpoint-form-verdict-ok");

    await endpoints.save();
    const card = endpoints.row("Lab server");
    await expect(card).toBeVisible();
    await expect(card.getByTestId("endpoint-address")).toHaveText(testbed.urls[0]!);
    // The secret was stored: the saved endpoint connects without typing it again.
    expect(await endpoints.testSaved("Lab server")).toBe("ok");
    await keepScreenshot(app, "endpoints-list-with-lab-server");
  });

  test("a wrong secret says the credentials were refused and keeps what was typed", async ({
    app,
    testbed,
  }) => {
    const endpoints = new EndpointsPage(app);
    await endpoints.open();
    await endpoints.startAdd();
    const typed = {
      kind: "custom",
      name: "Lab server, wrong secret",
      url: testbed.urls[0]!,
      bucket: testbed.bucket,
      accessKeyId: testbed.accessKeyId,
      secret: "not-the-secret",
    };
    await endpoints.fill(typed);

    expect(await endpoints.testConnection()).toBe("credentials");
    await expect(endpoints.verdict).toContainText("Credentials refused");
    await expect(endpoints.verdict).toContainText(/secret/i);
    await keepScreenshot(app, "endpoint-form-verdict-credentials");

    await expect(endpoints.kindSelect).toHaveValue(typed.kind);
    await expect(endpoints.input("name")).toHaveValue(typed.name);
    await expect(endpoints.input("url")).toHaveValue(typed.url);
    await expect(endpoints.input("bucket")).toHaveValue(typed.bucket);
    await expect(endpoints.input("access-key")).toHaveValue(typed.accessKeyId);
    await expect(endpoints.input("secret")).toHaveValue(typed.secret);
  });

  test("a bucket that does not exist is created from the verdict, as --create-bucket does", async ({
    app,
    testbed,
  }) => {
    const endpoints = new EndpointsPage(app);
    await endpoints.open();
    await endpoints.startAdd();
    await endpoints.fill({
      kind: "minio",
      name: "Lab server, new bucket",
      url: testbed.urls[0],
      bucket: "made-in-the-app",
      accessKeyId: testbed.accessKeyId,
      secret: testbed.secretAccessKey,
    });
    expect(await endpoints.testConnection()).toBe("bucket");
    await expect(endpoints.verdict).toContainText("NoSuchBucket");
    await keepScreenshot(app, "endpoint-form-verdict-bucket");
    expect(await endpoints.createBucket()).toBe("ok");
    await expect(endpoints.verdict.getByTestId("create-bucket")).toHaveCount(0);
    // Testing again finds the bucket there.
    expect(await endpoints.testConnection()).toBe("ok");
  });

  test("a wrong port says nothing answers there and keeps what was typed", async ({ app }) => {
    const endpoints = new EndpointsPage(app);
    await endpoints.open();
    await endpoints.startAdd();
    const url = `http://127.0.0.1:${await unusedPort()}`;
    await endpoints.fill({
      kind: "minio",
      name: "Lab server, wrong port",
      url,
      accessKeyId: "minioadmin",
      secret: "minioadmin",
    });

    expect(await endpoints.testConnection()).toBe("unreachable");
    await expect(endpoints.verdict).toContainText("Unreachable");
    await expect(endpoints.verdict).toContainText(/nothing answers|connection refused/i);
    await keepScreenshot(app, "endpoint-form-verdict-unreachable");

    await expect(endpoints.input("name")).toHaveValue("Lab server, wrong port");
    await expect(endpoints.input("url")).toHaveValue(url);
    await expect(endpoints.input("access-key")).toHaveValue("minioadmin");
    await expect(endpoints.input("secret")).toHaveValue("minioadmin");
  });
});
