import { describe, expect, it } from "vitest";
import { latencyParts, type AttemptTimeline, type LogicalRequest } from "./logical-request.ts";

function attempt(timeline: Partial<AttemptTimeline>): AttemptTimeline {
  return {
    replica: 0,
    readyUs: 0,
    sentUs: 0,
    headersUs: 0,
    firstByteUs: 0,
    endUs: 0,
    bytes: 0,
    error: null,
    ...timeline,
  };
}

function request(attempts: AttemptTimeline[], winner: number | null = 0): LogicalRequest {
  return {
    op: "PUT",
    intendedStartUs: 100,
    phaseIndex: 0,
    client: 0,
    measured: true,
    attempts,
    winner,
  };
}

describe("latencyParts", () => {
  it("takes the connect out of the client queue and the upload out of the server", () => {
    const parts = latencyParts(
      request([
        attempt({
          readyUs: 110,
          connectUs: 300,
          sentUs: 500,
          bodySentUs: 900,
          headersUs: 950,
          firstByteUs: 950,
          endUs: 960,
        }),
      ]),
    );
    expect(parts).toEqual({
      latencyUs: 860,
      clientQueueUs: 100,
      connectUs: 300,
      hedgeWaitUs: 0,
      uploadUs: 400,
      serverUs: 50,
      transferUs: 10,
    });
  });

  it("without a new connection or a body, connect and upload are 0 and the rest as before", () => {
    const parts = latencyParts(
      request([
        attempt({ readyUs: 105, sentUs: 120, headersUs: 200, firstByteUs: 210, endUs: 400 }),
      ]),
    );
    expect(parts).toEqual({
      latencyUs: 300,
      clientQueueUs: 20,
      connectUs: 0,
      hedgeWaitUs: 0,
      uploadUs: 0,
      serverUs: 90,
      transferUs: 190,
    });
  });

  it("bounds the connect by ready → sent and the upload by sent → first byte", () => {
    // A connection started for an earlier request; a server that answered before the body left.
    const parts = latencyParts(
      request([
        attempt({
          readyUs: 400,
          connectUs: 350,
          sentUs: 500,
          bodySentUs: 990,
          headersUs: 700,
          firstByteUs: 700,
          endUs: 1000,
        }),
      ]),
    );
    expect(parts).toMatchObject({ clientQueueUs: 300, connectUs: 100, uploadUs: 200, serverUs: 0 });
    expect(parts?.latencyUs).toBe(900);
  });

  it("the first attempt's connect and the winning backup's upload", () => {
    const parts = latencyParts(
      request(
        [
          attempt({ readyUs: 100, connectUs: 50, sentUs: 200, endUs: 800, error: "Cancelled" }),
          attempt({
            replica: 1,
            readyUs: 300,
            sentUs: 310,
            bodySentUs: 360,
            headersUs: 400,
            firstByteUs: 400,
            endUs: 450,
          }),
        ],
        1,
      ),
    );
    expect(parts).toEqual({
      latencyUs: 350,
      clientQueueUs: 50,
      connectUs: 50,
      hedgeWaitUs: 110,
      uploadUs: 50,
      serverUs: 40,
      transferUs: 50,
    });
  });
});
