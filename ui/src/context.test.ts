import { describe, expect, it } from "vitest";
import { itemsOf } from "./pages/Chat";
import { share } from "./pages/ContextMeter";
import { preview } from "./pages/EarlierSummary";

describe("the earlier turns' summary", () => {
  it("is read back as a summary item with the seq of the last message it covers", () => {
    const items = itemsOf([
      { kind: "user", seq: 1, text: "What is special about 4711?" },
      { kind: "summary", seq: 2, text: "The user asked about 4711.", covers_until_seq: 2 },
    ]);
    expect(items[1]).toEqual({ kind: "summary", seq: 2, text: "The user asked about 4711." });
  });

  it("shows its first line when collapsed, cut with an ellipsis", () => {
    expect(preview("The user asked about 4711.")).toBe("The user asked about 4711.");
    expect(preview("Line one\nLine two")).toBe("Line one…");
    expect(preview("数".repeat(100))).toBe(`${"数".repeat(90)}…`);
  });
});

describe("the context meter", () => {
  it("gives each part's share of the context in whole percents", () => {
    expect(share(2048, 8192)).toBe(25);
    expect(share(1, 3)).toBe(33);
    expect(share(9000, 8192)).toBe(100);
    expect(share(10, 0)).toBe(0);
  });
});
