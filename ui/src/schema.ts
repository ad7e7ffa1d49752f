// Checks a tool's parameter schema as the user types: JSON syntax (with line and column),
// a valid JSON Schema 2020-12, and the tool contract's rules (an object, property names,
// every property described, required names declared). One problem per place, with its
// JSON path and, where the place takes one of a set, the allowed values. Problems are
// codes with parameters; the editor words them in the UI's language (`schemaCheck.*`).
// The service checks the same on save and answers 422 per problem.
import Ajv2020 from "ajv/dist/2020";

export interface SchemaProblem {
  /** JSON pointer of the place in the schema ("" for the whole text). */
  path: string;
  /** What is wrong: a key under `schemaCheck` in the translations. */
  code: string;
  /** The values the message names (allowed values, line, column, …). */
  params: Record<string, string | number>;
}

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });

export function checkSchema(text: string): { schema?: any; problems: SchemaProblem[] } {
  let schema: any;
  try {
    schema = JSON.parse(text);
  } catch {
    const { line, column, found } = syntaxError(text);
    return { problems: [{ path: "", code: found ? "syntax" : "syntaxEnd", params: { line, column, found } }] };
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    return { problems: [{ path: "", code: "notObject", params: {} }] };
  }
  const problems: SchemaProblem[] = [];
  const add = (path: string, code: string, params: Record<string, string | number> = {}) => {
    if (!problems.some((p) => p.path === path)) problems.push({ path, code, params });
  };
  if (!ajv.validateSchema(schema)) {
    metaProblems(ajv.errors ?? []).forEach((p) => add(p.path, p.code, p.params));
  } else {
    try {
      ajv.compile(schema);
    } catch (e) {
      add("", "compile", { detail: (e as Error).message });
    }
  }
  if (schema.type !== "object") add("/type", "rootObject");
  const properties = schema.properties ?? {};
  if (typeof properties !== "object" || Array.isArray(properties)) {
    add("/properties", "propertiesObject");
  } else {
    for (const [name, property] of Object.entries<any>(properties)) {
      const at = `/properties/${pointerEscape(name)}`;
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) add(at, "propertyName", { name });
      else if (typeof property?.description !== "string" || !property.description.trim()) add(`${at}/description`, "needsDescription", { name });
    }
    const required = Array.isArray(schema.required) ? schema.required : [];
    required.forEach((name: unknown, i: number) => {
      if (typeof name === "string" && !(name in properties)) add(`/required/${i}`, "requiredUndeclared", { name });
    });
  }
  return { schema, problems };
}

function pointerEscape(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}

type AjvError = { instancePath: string; keyword: string; params: Record<string, any>; message?: string };

/**
 * Ajv's meta-schema errors, one per place: where a place failed `anyOf` (a `type` that is
 * neither a type name nor a list), the branch with an allowed-values list says it best.
 */
function metaProblems(errors: AjvError[]): SchemaProblem[] {
  const byPath = new Map<string, AjvError[]>();
  for (const e of errors) byPath.set(e.instancePath, [...(byPath.get(e.instancePath) ?? []), e]);
  const out: SchemaProblem[] = [];
  for (const [path, group] of byPath) {
    const listed = group.find((e) => e.keyword === "enum");
    if (listed) {
      out.push({ path, code: "allowed", params: { allowed: (listed.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ") } });
      continue;
    }
    const e = group.find((x) => x.keyword !== "anyOf" && x.keyword !== "oneOf") ?? group[0];
    switch (e.keyword) {
      case "type":
        out.push({ path, code: "type", params: { type: String(e.params.type) } });
        break;
      case "minimum":
      case "exclusiveMinimum":
        out.push({ path, code: "minimum", params: { limit: String(e.params.limit) } });
        break;
      case "minItems":
        out.push({ path, code: "minItems", params: { limit: String(e.params.limit) } });
        break;
      case "uniqueItems":
        out.push({ path, code: "uniqueItems", params: {} });
        break;
      case "format":
        out.push({ path, code: "format", params: { format: String(e.params.format) } });
        break;
      default:
        out.push({ path, code: "keyword", params: { keyword: e.keyword } });
    }
  }
  return out;
}

/** Where JSON text stops being JSON: 1-based line and column, and what was found there. */
export function syntaxError(text: string): { line: number; column: number; found: string } {
  const at = firstBadOffset(text);
  const before = text.slice(0, at);
  const line = before.split("\n").length;
  const column = at - before.lastIndexOf("\n");
  const found = at < text.length ? text[at] : "";
  return { line, column, found };
}

/** The offset of the first character a JSON grammar does not accept (the length: it ended early). */
function firstBadOffset(text: string): number {
  let i = 0;
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const literal = (word: string) => {
    for (const c of word) {
      if (text[i] !== c) fail();
      i++;
    }
  };
  const string = () => {
    i++; // the opening quote
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) fail();
      if (text[i] === "\\") {
        i++;
        if (text[i] === "u") {
          for (let k = 1; k <= 4; k++) if (!/[0-9a-fA-F]/.test(text[i + k] ?? "")) ((i += k), fail());
          i += 5;
          continue;
        }
        if (!'"\\/bfnrt'.includes(text[i] ?? "x")) fail();
      }
      i++;
    }
    if (i >= text.length) fail();
    i++;
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!match || match[0] === "-" || match[0] === "") fail();
    i += (match as RegExpExecArray)[0].length;
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === "{") {
      i++;
      space();
      if (text[i] === "}") return void i++;
      for (;;) {
        space();
        if (text[i] !== '"') fail();
        string();
        space();
        if (text[i] !== ":") fail();
        i++;
        value();
        space();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") return void i++;
        fail();
      }
    }
    if (c === "[") {
      i++;
      space();
      if (text[i] === "]") return void i++;
      for (;;) {
        value();
        space();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") return void i++;
        fail();
      }
    }
    if (c === '"') return string();
    if (c === "t") return literal("true");
    if (c === "f") return literal("false");
    if (c === "n") return literal("null");
    if (c === "-" || (c >= "0" && c <= "9")) return number();
    fail();
  };
  try {
    value();
    space();
    return i < text.length ? i : text.length;
  } catch (at) {
    return Math.min(at as number, text.length);
  }
}
