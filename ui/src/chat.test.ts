import { describe, expect, it } from "vitest";
import { itemsOf, summariesInReply } from "./pages/Chat";

describe("itemsOf", () => {
  it("turns a saved conversation into the chat's bubbles and tool cards", () => {
    const items = itemsOf([
      { kind: "user", seq: 1, text: "17% of 2340?" },
      {
        kind: "tool",
        seq: 2,
        id: "c1",
        name: "calculator",
        arguments: '{"expression":"17% of 2340"}',
        status: "done",
        summary: "17% of 2340 = 397.8",
        result: null,
      },
      { kind: "assistant", seq: 4, text: "397.8" },
    ]);
    expect(items).toEqual([
      { kind: "user", seq: 1, text: "17% of 2340?" },
      {
        kind: "tool",
        seq: 2,
        id: "c1",
        name: "calculator",
        args: '{"expression":"17% of 2340"}',
        status: "done",
        summary: "17% of 2340 = 397.8",
        result: undefined,
      },
      { kind: "assistant", seq: 4, text: "397.8" },
    ]);
  });
});

describe("summariesInReply", () => {
  const card = (summary: string) => ({ kind: "tool" as const, id: summary, name: "t", args: "{}", summary });
  it("marks the cards whose line the reply after them repeats, in its turn only", () => {
    const items = [
      { kind: "user" as const, text: "volume up and camera on" },
      card("Volume 50% → 60%"),
      card("Camera on (Simulated camera)"),
      { kind: "assistant" as const, text: "Volume 50% → 60%.\nCamera on (Simulated camera)." },
      { kind: "user" as const, text: "现在几点" },
      card("Asia/Shanghai 现在是 2026-12-01 20:00:00"),
      { kind: "assistant" as const, text: "现在是晚上八点。" },
      card("17% of 2340 = 397.8"),
      { kind: "assistant" as const, text: "17% of 2340 = 397.8。" },
    ];
    expect([...summariesInReply(items)]).toEqual([1, 2, 7]);
  });
});
