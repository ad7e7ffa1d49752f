import { describe, expect, it } from "vitest";
import { markParts, words } from "./search";

describe("markParts", () => {
  it("marks a Chinese word inside a phrase", () => {
    expect(markParts("今天下午记得喝水和休息", "喝水")).toEqual([
      { text: "今天下午记得", mark: false },
      { text: "喝水", mark: true },
      { text: "和休息", mark: false },
    ]);
  });

  it("marks every word in any case, keeping the text as it is", () => {
    expect(markParts("Drink water, DRINK!", "drink WATER")).toEqual([
      { text: "Drink", mark: true },
      { text: " ", mark: false },
      { text: "water", mark: true },
      { text: ", ", mark: false },
      { text: "DRINK", mark: true },
      { text: "!", mark: false },
    ]);
  });

  it("reads a query's regular-expression characters as text", () => {
    expect(markParts("a.b (c) [d]* a+b", "(c) a+b .*")).toEqual([
      { text: "a.b ", mark: false },
      { text: "(c)", mark: true },
      { text: " [d]* ", mark: false },
      { text: "a+b", mark: true },
    ]);
    expect(markParts("text", "   ")).toEqual([{ text: "text", mark: false }]);
    expect(markParts("", "x")).toEqual([]);
    expect(words("  a \t b ")).toEqual(["a", "b"]);
  });
});
