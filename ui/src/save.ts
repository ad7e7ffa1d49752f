// Saving a text file where the person chooses: in the desktop app the OS save dialog (the
// shell's `save_text` command writes only the path chosen there); in a browser, a download.

/** A file name from a title: what file systems refuse becomes "-", at most 80 characters. */
export function fileName(title: string, extension: string): string {
  const clean = title
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, "-")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^[.-]+|[.-]+$/g, "");
  const base = [...clean].slice(0, 80).join("") || "conversation";
  return `${base}.${extension}`;
}

/** Saves `text` as `name` (the dialog titled `title`): the path written, or `null` when
 *  the person cancelled. */
export async function saveText(name: string, title: string, text: string, type: string): Promise<string | null> {
  if ("__TAURI_INTERNALS__" in window) {
    const { invoke } = await import("@tauri-apps/api/core");
    return invoke<string | null>("save_text", { name, title, text });
  }
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  URL.revokeObjectURL(url);
  return name;
}
