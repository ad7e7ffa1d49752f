import { describe, expect, it } from "vitest";
import { fileName } from "./save";

describe("fileName", () => {
  it("keeps a Chinese title and adds the extension", () => {
    expect(fileName("今天下午记得喝水", "md")).toBe("今天下午记得喝水.md");
  });

  it("replaces what file systems refuse and trims dots and dashes", () => {
    expect(fileName('../a/b:c*?"<>|\n', "json")).toBe("a-b-c.json");
  });

  it("falls back to a name for an empty title and clips long ones", () => {
    expect(fileName("  ", "md")).toBe("conversation.md");
    expect([...fileName("长".repeat(200), "md")].length).toBe(83);
  });
});
