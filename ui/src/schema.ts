// Checks a tool's parameter schema as the user types: JSON syntax, a valid JSON Schema
// 2020-12, and the tool contract's rules (an object, no extra properties, every property
// described). The service checks it again on save.
import Ajv2020 from "ajv/dist/2020";

export interface SchemaProblem {
  path: string;
  message: string;
}

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });

export function checkSchema(text: string): { schema?: any; problems: SchemaProblem[] } {
  let schema: any;
  try {
    schema = JSON.parse(text);
  } catch (e) {
    return { problems: [{ path: "", message: `not JSON: ${(e as Error).message}` }] };
  }
  const problems: SchemaProblem[] = [];
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    return { problems: [{ path: "", message: "the schema must be a JSON object" }] };
  }
  if (!ajv.validateSchema(schema)) {
    for (const e of ajv.errors ?? []) problems.push({ path: e.instancePath, message: e.message ?? "invalid" });
  } else {
    try {
      ajv.compile(schema);
    } catch (e) {
      problems.push({ path: "", message: (e as Error).message });
    }
  }
  if (schema.type !== "object") problems.push({ path: "/type", message: 'must be "object"' });
  const properties = schema.properties ?? {};
  if (typeof properties !== "object" || Array.isArray(properties)) {
    problems.push({ path: "/properties", message: "must be an object" });
  } else {
    for (const [name, property] of Object.entries<any>(properties)) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
        problems.push({ path: `/properties/${name}`, message: "property names are letters, digits and _" });
      }
      if (typeof property?.description !== "string" || !property.description.trim()) {
        problems.push({ path: `/properties/${name}/description`, message: "every property needs a description" });
      }
    }
    for (const name of schema.required ?? []) {
      if (!(name in properties)) problems.push({ path: "/required", message: `"${name}" is required but not a property` });
    }
  }
  return { schema, problems };
}
