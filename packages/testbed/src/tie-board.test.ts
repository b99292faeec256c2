import { describe, expect, it } from "vitest";
import { createTieBoard, TIE_MEMORY_MS } from "./tie-board.ts";

describe("createTieBoard", () => {
  it("lets the first replica to start a tie serve it, and drops the twin that starts later", () => {
    const board = createTieBoard();
    expect(board.start("a", 0)).toBe(true);
    expect(board.start("a", 1)).toBe(false);
    // The same replica asking again is still the one serving it.
    expect(board.start("a", 0)).toBe(true);
  });

  it("drops twins waiting on other replicas when one starts, and only those", () => {
    const board = createTieBoard();
    const dropped: string[] = [];
    board.wait("a", 0, () => dropped.push("a@0"));
    const leave = board.wait("b", 0, () => dropped.push("b@0"));
    board.wait("a", 1, () => dropped.push("a@1"));
    expect(board.start("a", 1)).toBe(true);
    expect(dropped).toEqual(["a@0"]);
    leave();
    expect(board.start("b", 1)).toBe(true);
    expect(dropped).toEqual(["a@0"]);
  });

  it("drops a copy at once when it starts waiting after its twin started", () => {
    const board = createTieBoard();
    board.start("a", 1);
    const dropped: number[] = [];
    board.wait("a", 0, () => dropped.push(0));
    expect(dropped).toEqual([0]);
  });

  it("forgets ties after TIE_MEMORY_MS, so the board does not grow with the run", () => {
    let now = 0;
    const board = createTieBoard(() => now);
    for (let id = 0; id < 100; id++) board.start(String(id), 0);
    expect(board.size).toBe(100);
    now = TIE_MEMORY_MS + 1;
    board.start("late", 0);
    expect(board.size).toBe(1);
  });
});
