// What a person reads about a tool, in the UI's language: a built-in tool's name and
// summary come in both languages (`display`), its parameters carry a Chinese description
// beside the English one (`x-description-zh`); a user's own tool shows its own texts.

export interface Localized {
  zh: string;
  en: string;
}

export interface Display {
  name: Localized;
  description: Localized;
}

interface Shown {
  name: string;
  description: string;
  display?: Display | null;
}

export function isZh(language: string): boolean {
  return language.toLowerCase().startsWith("zh");
}

/** Picks the text of `language` from a pair. */
export function pick(text: Localized, language: string): string {
  return isZh(language) ? text.zh : text.en;
}

export function shownName(resource: Shown, language: string): string {
  return resource.display ? pick(resource.display.name, language) : resource.name;
}

export function shownDescription(resource: Shown, language: string): string {
  return resource.display ? pick(resource.display.description, language) : resource.description;
}

const DESCRIPTION_ZH = "x-description-zh";

/**
 * A parameter schema as the "try it" form shows it: in Chinese, each description that has a
 * Chinese one is replaced by it; `x-` keywords go (they are Deskmate's, not the form's).
 * Property names are data and are kept whatever they look like.
 */
export function schemaForPeople(schema: unknown, language: string): unknown {
  const zh = isZh(language);
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== "object") return node;
    const out: Record<string, unknown> = {};
    const record = node as Record<string, unknown>;
    for (const [key, value] of Object.entries(record)) {
      if (key.startsWith("x-")) continue;
      if (key === "properties" && value && typeof value === "object" && !Array.isArray(value)) {
        out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, walk(sub)]));
      } else {
        out[key] = walk(value);
      }
    }
    if (zh && typeof record[DESCRIPTION_ZH] === "string" && "description" in record) out.description = record[DESCRIPTION_ZH];
    return out;
  };
  return walk(schema);
}

/** A date and time in the UI's language. */
export function dateTime(at: Date | string | number, language: string): string {
  const date = at instanceof Date ? at : new Date(at);
  return new Intl.DateTimeFormat(isZh(language) ? "zh-CN" : "en", { dateStyle: "medium", timeStyle: "medium" }).format(date);
}

/** An autotest check's name and message in Chinese (runs stored before they were kept have none). */
export interface CheckZh {
  name: string;
  message: string;
}

/** An autotest check's name and message in the UI's language. */
export function checkText(c: { name: string; message: string; zh?: CheckZh | null }, language: string): CheckZh {
  return isZh(language) && c.zh ? c.zh : { name: c.name, message: c.message };
}
