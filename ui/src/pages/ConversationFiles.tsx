// A conversation as a file and back: the open conversation is saved as Markdown (to read)
// or JSON (to import again), its shown branch or all of them, where the person chooses;
// a JSON export dropped on the conversation list, or chosen with Import, becomes a
// conversation again. The API checks the file; its first wrong field is shown.
import { useRef, useState, type DragEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { api, apiText, ApiError } from "../api";
import { fileName, saveText } from "../save";

type Format = "markdown" | "json";

/** The toolbar's Export menu for the open conversation. */
export function ExportMenu({ conversation, title, disabled }: { conversation?: string; title: string; disabled: boolean }) {
  const { t, i18n } = useTranslation();
  const [all, setAll] = useState(false);
  const [status, setStatus] = useState<Status | null>(null);
  const menu = useRef<HTMLDetailsElement>(null);

  const save = async (format: Format) => {
    if (!conversation) return;
    setStatus(null);
    // The menu closes: it would cover the messages while the dialog is open.
    if (menu.current) menu.current.open = false;
    try {
      const query = new URLSearchParams({ format, branches: all ? "all" : "active", lang: i18n.language });
      const text = await apiText("GET", `/conversations/${encodeURIComponent(conversation)}/export?${query}`);
      const saved = await saveText(
        fileName(title || t("chat.untitled"), format === "markdown" ? "md" : "json"),
        format === "markdown" ? t("chat.saveMarkdown") : t("chat.saveJson"),
        text,
        format === "markdown" ? "text/markdown" : "application/json",
      );
      if (saved) setStatus({ ok: true, key: "chat.exported", params: { path: saved } });
    } catch (e) {
      setStatus({ ok: false, key: "chat.exportFailed", params: { error: e instanceof ApiError ? e.detail : String(e) } });
    }
  };

  return (
    <span className="export">
    {status && (
      <span className={status.ok ? "muted" : "error-text"} id="export-status" role="status">
        {t(status.key, status.params)}
      </span>
    )}
    <details className="export-menu" id="chat-export" ref={menu}>
      <summary aria-disabled={!conversation || disabled}>{t("chat.export")}</summary>
      <div className="menu" role="menu">
        <button type="button" id="export-markdown" role="menuitem" disabled={!conversation || disabled} onClick={() => void save("markdown")}>
          {t("chat.saveMarkdown")}
        </button>
        <button type="button" id="export-json" role="menuitem" disabled={!conversation || disabled} onClick={() => void save("json")}>
          {t("chat.saveJson")}
        </button>
        <label className="inline">
          <input type="checkbox" id="export-all-branches" checked={all} onChange={(e) => setAll(e.target.checked)} /> {t("chat.allBranches")}
        </label>
      </div>
    </details>
    </span>
  );
}

/** What a status line says: a sentence (its i18n key and values, so it follows the
 * window's language when that changes), and the API's own words (English, for whoever
 * needs the exact rule) one click away. */
type Status = { ok: boolean; key: string; params: Record<string, string>; detail?: string };

/** A refused import as a person reads it: where in the file the first problem is, in the
 * window's language; the API's message about it as the detail. */
function refusal(name: string, e: unknown): Status {
  if (!(e instanceof ApiError)) return { ok: false, key: "chat.importFailed", params: { name, error: String(e) } };
  const first = e.errors[0];
  const where = first?.path && first.path !== "/" ? first.path : "";
  return {
    ok: false,
    key: where ? "chat.importRefusedAt" : "chat.importRefused",
    params: { name, where },
    detail: first ? `${first.path || "/"}: ${first.message}` : e.detail,
  };
}

/** Wraps the conversation list: a file dropped on it, or chosen with Import, is imported. */
export function ImportDrop({ onImported, children }: { onImported: (id: string) => void; children: ReactNode }) {
  const { t } = useTranslation();
  const [over, setOver] = useState(false);
  const [status, setStatus] = useState<Status | null>(null);

  const importFile = async (file: File) => {
    setStatus(null);
    let body: unknown;
    try {
      body = JSON.parse(await file.text());
    } catch {
      setStatus({ ok: false, key: "chat.importNotJson", params: { name: file.name } });
      return;
    }
    try {
      const made = await api<{ id: string }>("POST", "/conversations/import", body);
      setStatus({ ok: true, key: "chat.imported", params: { name: file.name } });
      onImported(made.id);
    } catch (e) {
      setStatus(refusal(file.name, e));
    }
  };
  const dropped = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const file = e.dataTransfer.files[0];
    if (file) void importFile(file);
  };

  return (
    <div
      className={over ? "import-drop over" : "import-drop"}
      id="import-drop"
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes("Files")) {
          e.preventDefault();
          setOver(true);
        }
      }}
      onDragLeave={() => setOver(false)}
      onDrop={dropped}
    >
      {children}
      <label className="import-file link">
        {t("chat.import")}
        <input
          type="file"
          id="import-file"
          accept=".json,application/json"
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            e.currentTarget.value = "";
            if (file) void importFile(file);
          }}
        />
      </label>
      <p className="muted hint">{t("chat.importHint")}</p>
      {status && (
        <div className={status.ok ? "muted" : "error"} id="import-status" role="status">
          <p>{t(status.key, status.params)}</p>
          {status.detail && (
            <details className="import-detail">
              <summary>{t("chat.importDetail")}</summary>
              <code>{status.detail}</code>
            </details>
          )}
        </div>
      )}
    </div>
  );
}
