// The UI's API types, generated from the OpenAPI document the API serves.
//
// `openapi.json` is that document, written by crates/api's test `the_committed_document_
// is_the_served_one` (DESKMATE_BLESS=1 rewrites it; the test fails when it is stale).
// `npm run api-types` writes src/api-types.ts from it; api-types.test.mjs fails when
// that file is not what this writes, so a change of the API that the UI's types miss
// fails the UI's tests.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";

const BANNER = "// Generated from ../openapi.json by `npm run api-types`: do not edit.\n\n";

/** The text of src/api-types.ts for the committed openapi.json. */
export async function apiTypes() {
  const document = JSON.parse(readFileSync(new URL("./openapi.json", import.meta.url), "utf8"));
  return BANNER + astToString(await openapiTS(document));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(new URL("./src/api-types.ts", import.meta.url), await apiTypes());
}
