// Marking the words of a search in a hit's snippet: the text split into the parts that
// are a word searched for (any case) and the parts between, so the page can wrap the
// first in <mark> without writing HTML.

/** A part of a text, and whether it is a word searched for. */
export interface Part {
  text: string;
  mark: boolean;
}

/** The words of a query as the service splits it: at white space. */
export function words(query: string): string[] {
  return query.split(/\s+/u).filter(Boolean);
}

function escaped(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&");
}

/** `text` in parts: each place one of the query's words stands (any case) is marked. */
export function markParts(text: string, query: string): Part[] {
  const found = words(query).sort((a, b) => b.length - a.length);
  if (found.length === 0 || text === "") return text === "" ? [] : [{ text, mark: false }];
  const pattern = new RegExp(found.map(escaped).join("|"), "giu");
  const parts: Part[] = [];
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    const start = match.index ?? 0;
    if (match[0] === "") continue;
    if (start > at) parts.push({ text: text.slice(at, start), mark: false });
    parts.push({ text: match[0], mark: true });
    at = start + match[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), mark: false });
  return parts;
}
