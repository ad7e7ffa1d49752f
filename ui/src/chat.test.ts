import { describe, expect, it } from "vitest";
import { itemsOf } from "./pages/Chat";

describe("itemsOf", () => {
  it("turns a saved conversation into the chat's bubbles and tool cards", () => {
    const items = itemsOf([
      { kind: "user", text: "17% of 2340?" },
      {
        kind: "tool",
        id: "c1",
        name: "calculator",
        arguments: '{"expression":"17% of 2340"}',
        status: "done",
        summary: "17% of 2340 = 397.8",
        result: null,
      },
      { kind: "assistant", text: "397.8" },
    ]);
    expect(items).toEqual([
      { kind: "user", text: "17% of 2340?" },
      {
        kind: "tool",
        id: "c1",
        name: "calculator",
        args: '{"expression":"17% of 2340"}',
        status: "done",
        summary: "17% of 2340 = 397.8",
        result: undefined,
      },
      { kind: "assistant", text: "397.8" },
    ]);
  });
});
