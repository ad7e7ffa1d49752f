import { describe, expect, it } from "vitest";
import { checkSchema } from "./schema";

describe("checkSchema", () => {
  it("accepts a described object schema", () => {
    const text = JSON.stringify({
      type: "object",
      properties: { city: { type: "string", description: "City name" } },
      required: ["city"],
      additionalProperties: false,
    });
    expect(checkSchema(text).problems).toEqual([]);
  });

  it("reports JSON syntax errors", () => {
    expect(checkSchema('{"type": "object",').problems[0].message).toMatch(/not JSON/);
  });

  it("reports invalid JSON Schema and the contract's rules", () => {
    const { problems } = checkSchema(
      JSON.stringify({ type: "array", properties: { q: { type: "strin" } }, required: ["x"] }),
    );
    const paths = problems.map((p) => p.path);
    expect(paths).toContain("/type");
    expect(paths).toContain("/properties/q/description");
    expect(paths).toContain("/required");
    expect(problems.length).toBeGreaterThanOrEqual(4);
  });
});
