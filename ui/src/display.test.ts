import { describe, expect, it } from "vitest";
import { dateTime, schemaForPeople, shownDescription, shownName } from "./display";

const calculator = {
  name: "计算器",
  description: "Evaluates an arithmetic expression (for the model).",
  display: { name: { zh: "计算器", en: "Calculator" }, description: { zh: "精确计算。", en: "Works it out exactly." } },
};

describe("tool display", () => {
  it("names a built-in tool in the UI's language", () => {
    expect(shownName(calculator, "en")).toBe("Calculator");
    expect(shownName(calculator, "zh-CN")).toBe("计算器");
    expect(shownDescription(calculator, "en")).toBe("Works it out exactly.");
    expect(shownDescription(calculator, "zh-CN")).toBe("精确计算。");
  });

  it("shows a user's tool as the user wrote it", () => {
    const own = { name: "Weather", description: "Asks the weather service." };
    expect(shownName(own, "zh-CN")).toBe("Weather");
    expect(shownDescription(own, "zh-CN")).toBe("Asks the weather service.");
  });

  it("gives the form Chinese descriptions in Chinese and drops x- keywords", () => {
    const schema = {
      type: "object",
      properties: {
        step: { type: "integer", description: "Percentage points.", "x-description-zh": "百分点。", "x-percent": true },
        "x-odd": { type: "string", description: "A property whose name looks like a keyword." },
        plain: { type: "string", description: "No Chinese." },
      },
    };
    expect(schemaForPeople(schema, "zh-CN")).toEqual({
      type: "object",
      properties: {
        step: { type: "integer", description: "百分点。" },
        "x-odd": { type: "string", description: "A property whose name looks like a keyword." },
        plain: { type: "string", description: "No Chinese." },
      },
    });
    expect((schemaForPeople(schema, "en") as any).properties.step).toEqual({ type: "integer", description: "Percentage points." });
  });

  it("writes dates in the UI's language", () => {
    const at = Date.UTC(2026, 11, 2, 1, 2, 3);
    expect(dateTime(at, "zh-CN")).toMatch(/2026年12月2日/);
    expect(dateTime(at, "en")).toMatch(/Dec 2, 2026/);
  });
});
