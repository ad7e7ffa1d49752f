import { describe, expect, it } from "vitest";
import { parseSse } from "./api";

describe("parseSse", () => {
  it("splits events, parses JSON data and keeps the unfinished rest", () => {
    const text = 'event: token\ndata: {"text":"Hi"}\n\n: keep-alive\n\nevent: done\ndata: {"reply":"Hi"}\n\nevent: tok';
    const { events, rest } = parseSse(text);
    expect(events).toEqual([
      { event: "token", data: { text: "Hi" } },
      { event: "done", data: { reply: "Hi" } },
    ]);
    expect(rest).toBe("event: tok");
  });

  it("joins multi-line data, reads CRLF and keeps non-JSON text", () => {
    const { events } = parseSse("data: one\r\ndata: two\r\n\r\n");
    expect(events).toEqual([{ event: "message", data: "one\ntwo" }]);
  });

  it("returns nothing for an empty or incomplete buffer", () => {
    expect(parseSse("").events).toEqual([]);
    expect(parseSse("event: x\ndata: 1").events).toEqual([]);
  });
});
