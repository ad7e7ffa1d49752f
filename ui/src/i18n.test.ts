import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { en, keys, zhCN } from "./i18n";

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) && !e.name.includes(".test.") ? [join(dir, e.name)] : [],
  );
}

describe("translations", () => {
  it("have the same keys in en and zh-CN", () => {
    expect(keys(zhCN).sort()).toEqual(keys(en).sort());
  });

  it("translate every key the UI uses", () => {
    const known = new Set(keys(en));
    const used = new Set<string>();
    for (const file of sources(new URL(".", import.meta.url).pathname)) {
      for (const m of readFileSync(file, "utf8").matchAll(/\bt\(\s*"([a-zA-Z0-9_.]+)"/g)) used.add(m[1]);
    }
    expect(used.size).toBeGreaterThan(50);
    expect([...used].filter((k) => !known.has(k))).toEqual([]);
  });

  it("differ between the languages", () => {
    expect(zhCN.nav.chat).not.toBe(en.nav.chat);
  });
});
