import { describe, expect, it } from "vitest";
import { createReplicaChooser, type ReplicaStrategy } from "./replica-choice.ts";

const STRATEGIES: ReplicaStrategy[] = ["round-robin", "least-outstanding"];

describe.each(STRATEGIES)("%s", (strategy) => {
  it("takes replicas in turn while none is busy", () => {
    const chooser = createReplicaChooser({ replicas: 3, strategy });
    expect(Array.from({ length: 7 }, () => chooser.pick())).toEqual([0, 1, 2, 0, 1, 2, 0]);
  });

  it.each([0, 1, 2])("sends the backup away from replica %d", (exclude) => {
    const chooser = createReplicaChooser({ replicas: 3, strategy });
    for (let index = 0; index < 30; index += 1) {
      expect(chooser.pick(exclude)).not.toBe(exclude);
    }
  });

  it("sends both attempts to the only replica when there is one", () => {
    const chooser = createReplicaChooser({ replicas: 1, strategy });
    expect([chooser.pick(), chooser.pick(0), chooser.pick(0)]).toEqual([0, 0, 0]);
  });

  it("with two replicas, always backs up on the other", () => {
    const chooser = createReplicaChooser({ replicas: 2, strategy });
    for (let index = 0; index < 10; index += 1) {
      const first = chooser.pick();
      chooser.started(first);
      expect(chooser.pick(first)).toBe(1 - first);
    }
  });

  it("counts attempts in flight per replica", () => {
    const chooser = createReplicaChooser({ replicas: 2, strategy });
    chooser.started(1);
    chooser.started(1);
    chooser.finished(1);
    expect([chooser.outstanding(0), chooser.outstanding(1)]).toEqual([0, 1]);
  });

  it("rejects unknown replicas and unmatched finishes", () => {
    const chooser = createReplicaChooser({ replicas: 2, strategy });
    expect(() => chooser.started(2)).toThrow(/0 to 1/);
    expect(() => chooser.outstanding(-1)).toThrow(/0 to 1/);
    expect(() => chooser.pick(5)).toThrow(/0 to 1/);
    expect(() => chooser.finished(0)).toThrow(/never started/);
  });
});

describe("round-robin", () => {
  it("ignores load", () => {
    const chooser = createReplicaChooser({ replicas: 3, strategy: "round-robin" });
    chooser.started(0);
    chooser.started(0);
    expect([chooser.pick(), chooser.pick(), chooser.pick()]).toEqual([0, 1, 2]);
  });

  it("keeps its turn after skipping the excluded replica", () => {
    const chooser = createReplicaChooser({ replicas: 3, strategy: "round-robin" });
    expect([chooser.pick(), chooser.pick(1), chooser.pick()]).toEqual([0, 2, 0]);
  });
});

describe("least-outstanding", () => {
  it("takes the replica with the fewest attempts in flight", () => {
    const chooser = createReplicaChooser({ replicas: 3, strategy: "least-outstanding" });
    chooser.started(0);
    chooser.started(0);
    chooser.started(1);
    expect(chooser.pick()).toBe(2);
    chooser.started(2);
    chooser.started(2);
    expect(chooser.pick()).toBe(1);
  });

  it("takes the least busy of the others for a backup", () => {
    const chooser = createReplicaChooser({ replicas: 3, strategy: "least-outstanding" });
    chooser.started(1);
    chooser.started(2);
    chooser.started(2);
    expect(chooser.pick(0)).toBe(1);
  });

  it("breaks ties in turn, so equal load spreads over all replicas", () => {
    const chooser = createReplicaChooser({ replicas: 4, strategy: "least-outstanding" });
    chooser.started(2);
    // 0, 1 and 3 tie at 0 in flight; each pick moves on past the last one.
    expect([chooser.pick(), chooser.pick(), chooser.pick(), chooser.pick()]).toEqual([0, 1, 3, 0]);
  });

  it("spreads a closed loop of requests evenly", () => {
    const chooser = createReplicaChooser({ replicas: 3, strategy: "least-outstanding" });
    const sent = [0, 0, 0];
    for (let index = 0; index < 300; index += 1) {
      const replica = chooser.pick();
      chooser.started(replica);
      sent[replica] = (sent[replica] as number) + 1;
      chooser.finished(replica);
    }
    expect(sent).toEqual([100, 100, 100]);
  });
});

describe("createReplicaChooser", () => {
  it.each([0, -1, 1.5])("rejects %d replicas", (replicas) => {
    expect(() => createReplicaChooser({ replicas, strategy: "round-robin" })).toThrow(/at least 1/);
  });
});
