// The language scan, run in the app's webview by the e2e tests (WebDriver "execute"):
// returns every visible piece of text that comes from the other language than the UI's.
//
// arguments[0]: "en" or "zh-CN". arguments[1]: identifiers that are data in either mode
// (tool ids, device and model names), never counted as words.
//
// Not scanned: the person's own data and what outside programs say, which the UI marks
// (`[data-user]`) or, inside a Chinese sentence, quotes (“…”: a device's or a model's own
// name); code (`code`, `pre`, form fields, the JSON editors); the language switch, which
// names each language in itself. In English nothing Chinese may show; in
// Chinese no English word may show except names of products, protocols and formats.
const [language, identifiers] = arguments;
const zh = language.toLowerCase().startsWith("zh");
const SKIP = "code, pre, textarea, input, script, style, [data-user], .cm-editor, #language";
const NAMES = new Set(
  [
    "deskmate", "llm", "asr", "mcp", "api", "json", "schema", "url", "http", "https", "get", "post", "put",
    "patch", "delete", "junit", "xml", "id", "ids", "ok", "token", "tokens", "enter", "shift", "stdio",
    "streamable", "claude", "desktop", "pulseaudio", "pipewire", "espeak", "ng", "dunst", "whisper", "qwen",
    "smollm", "csv", "python", "iana", "utc", "sas", "cdisc", "tool_calls", "base_url", "api_key", "ms",
    "gui", "webdriver", "keyring", "secret", "service", "os", "tts", "kb", "sse", "pcm", "wav", "mp3",
    "ctrl", "alt", "space", "esc", "cmd", "tab",
  ].concat(identifiers.map((s) => String(s).toLowerCase())),
);

function visible(element) {
  if (!element || element.closest(SKIP)) return false;
  for (let e = element; e; e = e.parentElement) {
    const style = window.getComputedStyle(e);
    if (style.display === "none" || style.visibility === "hidden") return false;
    // A closed <details> shows only its summary.
    if (e.tagName === "DETAILS" && !e.open) {
      const summary = e.querySelector(":scope > summary");
      if (!summary || !summary.contains(element)) return false;
    }
  }
  return true;
}

function offends(text) {
  if (!zh) return /[\u3400-\u9fff\uf900-\ufaff]/.test(text);
  const stripped = text
    .replace(/“[^”]*”|"[^"]*"|'[^']*'/g, " ") // quoted: a name or a literal, as it is
    .replace(/\{[^}]*\}/g, " ") // JSON and placeholders
    .replace(/\S+:\/\/\S+/g, " ") // URLs
    .replace(/(^|\s)[/~.][^\s]*/g, " ") // paths
    .replace(/\b\S*[_\d.]\S*\b/g, " "); // identifiers, versions, numbers
  const words = stripped.match(/[A-Za-z][A-Za-z'’-]*[A-Za-z]/g) ?? [];
  return words.some((w) => w.length >= 3 && !NAMES.has(w.toLowerCase()));
}

const found = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const text = node.textContent.replace(/\s+/g, " ").trim();
  if (!text || !visible(node.parentElement) || !offends(text)) continue;
  const where = node.parentElement.id || node.parentElement.className || node.parentElement.tagName;
  found.push(`${where}: ${text}`);
}
// Placeholders and titles are shown too.
for (const element of document.querySelectorAll("[placeholder], [title], [aria-label]")) {
  if (element.closest("[data-user], #language")) continue;
  for (const attribute of ["placeholder", "title", "aria-label"]) {
    const text = element.getAttribute(attribute);
    if (text && offends(text)) found.push(`${element.id || element.tagName}[${attribute}]: ${text}`);
  }
}
return [...new Set(found)];
