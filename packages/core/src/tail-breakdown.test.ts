import { describe, expect, it } from "vitest";
import type { LogicalRequest } from "./logical-request.ts";
import { PhaseAccount } from "./phase-account.ts";

/** A request answered `serverUs` after it was sent, on time. */
function answered(index: number, serverUs: number): LogicalRequest {
  const startUs = index * 10_000_000;
  return {
    op: "GET",
    intendedStartUs: startUs,
    phaseIndex: 0,
    client: 0,
    measured: true,
    attempts: [
      {
        replica: 0,
        readyUs: startUs,
        sentUs: startUs,
        headersUs: startUs + serverUs,
        firstByteUs: startUs + serverUs,
        endUs: startUs + serverUs,
        bytes: 1,
        error: null,
      },
    ],
    winner: 0,
  };
}

function tailOf(requests: LogicalRequest[]) {
  const account = new PhaseAccount({ op: "GET", loop: "closed", hedgeBudgetPct: null });
  requests.forEach((request) => account.add(request));
  const tail = account.summary().tail;
  account.destroy();
  return tail;
}

describe("where the tail went", () => {
  it("holds exactly the slowest 1 % and 0.1 %, chosen by rank, when many share a bucket", () => {
    // An overloaded run: 6.5 % of 4 000 requests within one bucket (1 000–1 010 ms).
    const requests = Array.from({ length: 4000 }, (_, index) =>
      answered(index, index < 260 ? 1_000_000 + index * 30 : 2000 + index),
    );
    const tail = tailOf(requests);
    expect(tail?.p99.requests).toBe(40);
    expect(tail?.p999.requests).toBe(4);
    expect(tail?.p99.serverMs).toBeGreaterThanOrEqual(1000);
  });

  it("takes the slowest requests whole where they stand apart, and one of a handful", () => {
    const requests = Array.from({ length: 1000 }, (_, index) =>
      answered(index, index < 10 ? 500_000 : 1000),
    );
    const tail = tailOf(requests);
    expect(tail?.p99).toMatchObject({ requests: 10, meanMs: 500, serverMs: 500 });
    expect(tail?.p999).toMatchObject({ requests: 1, meanMs: 500 });
    expect(tailOf(requests.slice(0, 3))?.p99.requests).toBe(1);
  });
});
