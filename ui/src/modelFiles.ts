// What the Models page and the header say about a model's server and about the GGUF
// files a person can add: pure functions (no React), so they are unit-tested.
import { ApiError } from "./api";
import type { components } from "./api-types";
import { isZh } from "./display";

type Schemas = components["schemas"];

export type ServingState = Schemas["ServingState"];

/** A `.gguf` file found in a models folder (`GET /api/v1/model-files`). */
export type FoundFile = Schemas["FoundFile"];

/** What is read of a model to say what its server is doing. */
export interface ModelServing {
  state?: ServingState | null;
  state_detail?: string | null;
  file?: { path: string } | null;
}

/** How a model's state reads to a person: the i18n key of its label, its colour (a
 *  `.badge` class) and, when the server said more, that text (loading progress, why it
 *  failed). `hint` is an i18n key for what Deskmate itself explains. */
export interface StateView {
  label: string;
  tone: "" | "done" | "running" | "failed";
  detail: string | null;
  hint: string | null;
}

export function stateView(model: ModelServing): StateView | null {
  const detail = model.state_detail?.trim() || null;
  switch (model.state) {
    case "ready":
      return { label: "models.state.ready", tone: "done", detail: null, hint: null };
    case "starting":
      return { label: "models.state.starting", tone: "running", detail, hint: null };
    case "failed":
      return { label: "models.state.failed", tone: "failed", detail, hint: null };
    case "stopped":
      // A model run from a file starts on first use: nothing is wrong yet.
      return model.file
        ? { label: "models.state.notStarted", tone: "", detail: null, hint: "models.notStartedHint" }
        : { label: "models.state.stopped", tone: "failed", detail, hint: "models.stoppedHint" };
    case "remote":
      return { label: "models.state.remote", tone: "", detail: null, hint: null };
    default:
      return null;
  }
}

/** Whether a list of models needs reading again soon (one of them is loading). */
export function anyStarting(models: ModelServing[]): boolean {
  return models.some((m) => m.state === "starting");
}

/** A file size as people read it: MB below a gigabyte, else GB (1000-based, like file
 *  managers), in the UI's language's number format. */
export function fileSize(bytes: number, language: string): string {
  const locale = isZh(language) ? "zh-CN" : "en";
  const format = (n: number, digits: number) => n.toLocaleString(locale, { maximumFractionDigits: digits });
  if (bytes >= 1e9) return `${format(bytes / 1e9, 1)} GB`;
  if (bytes >= 1e6) return `${format(bytes / 1e6, bytes >= 1e8 ? 0 : 1)} MB`;
  if (bytes >= 1e3) return `${format(bytes / 1e3, 0)} KB`;
  return `${format(bytes, 0)} B`;
}

/** The last part of a path (either slash). */
export function baseName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}

/** The name a model added from `path` gets: its file name without `.gguf`. */
export function modelNameOf(path: string): string {
  const name = baseName(path.trim()).replace(/\.gguf$/i, "");
  return name || "model";
}

/** What a found file's row offers: an Add button, "Added" (the model's id), or why it
 *  cannot be added. */
export type FileRow = { kind: "add" } | { kind: "added"; modelId: string } | { kind: "error"; error: string };

export function fileRow(file: FoundFile): FileRow {
  if (file.model_id) return { kind: "added", modelId: file.model_id };
  if (file.error) return { kind: "error", error: file.error };
  return { kind: "add" };
}

/** Why an add failed, as one message and its hint: the 422's first field error, else
 *  the error's own text. */
export function addError(e: unknown): { message: string; hint: string | null } {
  if (e instanceof ApiError) {
    const first = e.errors[0];
    if (first) return { message: first.message, hint: first.hint ?? null };
    return { message: e.detail, hint: null };
  }
  return { message: String(e), hint: null };
}

/** The body that adds a model run from the GGUF file at `path`. */
export function newFileModel(path: string): Schemas["NewLlmModel"] {
  const file = path.trim();
  return { name: modelNameOf(file), file };
}

/** Whether the page runs in the desktop app (which has the OS open dialog). */
export function inDesktop(): boolean {
  return typeof window !== "undefined" && "__TAURI_INTERNALS__" in window;
}

/** The OS open dialog of the desktop app, for a `.gguf` file (the shell's
 *  `pick_model_file` command): the path chosen, or `null` when cancelled. */
export async function pickModelFile(title: string): Promise<string | null> {
  const { invoke } = await import("@tauri-apps/api/core");
  return invoke<string | null>("pick_model_file", { title });
}
