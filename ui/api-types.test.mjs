import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { apiTypes } from "./api-types.mjs";

test("src/api-types.ts is generated from the committed OpenAPI document", async () => {
  const committed = readFileSync(new URL("./src/api-types.ts", import.meta.url), "utf8");
  // On a mismatch: `npm run api-types` (after DESKMATE_BLESS=1 cargo test -p deskmate-api
  // --test openapi_file, if the API changed).
  expect(committed).toBe(await apiTypes());
});
