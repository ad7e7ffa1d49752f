import { describe, expect, it } from "vitest";
import { checkSchema, syntaxError } from "./schema";
import { en, zhCN } from "./i18n";

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

  it("places a JSON syntax error at its line and column", () => {
    const text = '{\n  "type": "object",\n  "properties": {\n    "city": {"type": "string",}\n  }\n}';
    expect(checkSchema(text).problems).toEqual([{ path: "", code: "syntax", params: { line: 4, column: 31, found: "}" } }]);
    expect(syntaxError('{"type": "object",')).toEqual({ line: 1, column: 19, found: "" });
    expect(checkSchema('{"type": "object",').problems[0].code).toBe("syntaxEnd");
    expect(syntaxError('{"a": tru}')).toMatchObject({ line: 1, column: 10, found: "}" });
    expect(syntaxError("{'a': 1}")).toMatchObject({ line: 1, column: 2, found: "'" });
  });

  it("says one thing per place, with the allowed values of a misspelt type", () => {
    const { problems } = checkSchema(
      JSON.stringify({ type: "object", properties: { city: { type: "strng", description: "City" } } }),
    );
    expect(problems).toHaveLength(1);
    expect(problems[0].path).toBe("/properties/city/type");
    expect(problems[0].code).toBe("allowed");
    expect(String(problems[0].params.allowed)).toContain('"string"');
  });

  it("reports the contract's rules at their paths", () => {
    const { problems } = checkSchema(
      JSON.stringify({ type: "array", properties: { q: { type: "string" }, "bad name": { type: "string", description: "d" } }, required: ["q", "x"] }),
    );
    expect(problems.map((p) => [p.path, p.code])).toEqual([
      ["/type", "rootObject"],
      ["/properties/q/description", "needsDescription"],
      ["/properties/bad name", "propertyName"],
      ["/required/1", "requiredUndeclared"],
    ]);
  });

  it("has words for every problem in both languages", () => {
    for (const code of ["syntax", "syntaxEnd", "notObject", "allowed", "type", "minimum", "minItems", "uniqueItems", "format", "keyword", "compile", "rootObject", "propertiesObject", "propertyName", "needsDescription", "requiredUndeclared"]) {
      expect(en.schemaCheck).toHaveProperty(code);
      expect(zhCN.schemaCheck).toHaveProperty(code);
    }
  });
});
