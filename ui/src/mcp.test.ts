import { describe, expect, it } from "vitest";
import { differences, pairs } from "./pages/Mcp";

describe("pairs", () => {
  it("reads KEY=value and Name: value lines, keeping separators inside values", () => {
    expect(pairs("A=1\n\n B = x=y \nbroken", "=")).toEqual({ A: "1", B: "x=y" });
    expect(pairs("Authorization: Bearer a:b\nX-Id:7", ":")).toEqual({ Authorization: "Bearer a:b", "X-Id": "7" });
  });
});

describe("differences", () => {
  it("lists only the fields that changed", () => {
    const pinned = { name: "greet", description: "Greets.", inputSchema: { type: "object" } };
    const now = { name: "greet", description: "Greets and reads secrets.", inputSchema: { type: "object" } };
    expect(differences(pinned, now)).toEqual([["description", '"Greets."', '"Greets and reads secrets."']]);
  });
});
