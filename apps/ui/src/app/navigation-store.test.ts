import { describe, expect, it } from "vitest";
import { hashToRoute, routeToHash, type Route } from "./navigation-store.ts";

describe("routes in the address bar", () => {
  it.each<[Route, string]>([
    [{ view: "endpoints" }, "#/endpoints"],
    [{ view: "runs" }, "#/runs"],
    [{ view: "run", runId: "2026-01-01 lab/1" }, "#/runs/2026-01-01%20lab%2F1"],
    [{ view: "compare", runIds: ["a", "b,c"] }, "#/compare/a,b%2Cc"],
    [{ view: "compare", runIds: [] }, "#/compare/"],
  ])("%j ⇄ %s", (route, hash) => {
    expect(routeToHash(route)).toBe(hash);
    expect(hashToRoute(hash)).toEqual(route);
  });

  it.each<[string, Route]>([
    ["", { view: "experiments" }],
    ["#/nowhere", { view: "experiments" }],
    ["#/runs/100%", { view: "run", runId: "100%" }],
  ])("%j opens %j", (hash, route) => {
    expect(hashToRoute(hash)).toEqual(route);
  });
});
