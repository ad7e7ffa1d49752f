// What the chat model is doing, as the header and the Models page show it: a local model
// Deskmate runs is loading (with its progress), ready, not started yet (a model file starts
// on first use), stopped or failed (with why); another server is "remote".
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, Schemas } from "./api";
import { anyStarting, stateView } from "./modelFiles";

export type ServingState = Schemas["ServingState"];

/** What the header and the badge read of a model (LLM or ASR). */
export type Serving = Pick<Schemas["LlmModelView"], "id" | "name" | "is_default" | "state" | "state_detail" | "file">;

/// The badge for a model's state: loading · ready · not started yet · stopped · failed.
export function StateBadge({ model }: { model: Serving }) {
  const { t } = useTranslation();
  const view = stateView(model);
  if (!view) return null;
  return (
    <span className={`badge ${view.tone}`} data-state={model.state} title={view.hint ? t(view.hint) : undefined}>
      {t(view.label)}
    </span>
  );
}

/// What the server said about its state (loading progress, why it failed) and what
/// Deskmate explains (a file model starts when first used). The server's words are its
/// own (English), so they are marked as not the UI's.
export function StateDetail({ model, compact = false }: { model: Serving; compact?: boolean }) {
  const { t } = useTranslation();
  const view = stateView(model);
  // The header has room for what the server said, not for Deskmate's explanation (the
  // badge's tooltip).
  if (!view || (!view.detail && (!view.hint || compact))) return null;
  if (view.detail) {
    // A failure's reason may carry log lines: the first line in the header, all on the page.
    const text = compact ? view.detail.split("\n")[0] : view.detail;
    return (
      <small className={`state-detail ${view.tone === "failed" ? "error-text" : "muted"}`} data-user data-state-detail={model.state}>
        {text}
      </small>
    );
  }
  return <small className="state-detail muted" data-state-detail={model.state}>{t(view.hint ?? "")}</small>;
}

const CHANGED = "deskmate:models-changed";

/// Says the chat models changed (added, edited, removed, or read anew): the header checks.
export function modelsChanged() {
  window.dispatchEvent(new Event(CHANGED));
}

/// The default chat model (or the first), checked again every few seconds while it loads
/// and whenever the models change.
export function HeaderModel() {
  const { t } = useTranslation();
  const [model, setModel] = useState<Serving | null>(null);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let live = true;
    const check = () => {
      api<{ list: Serving[] }>("GET", "/models/llm")
        .then((r) => {
          if (!live) return;
          const chosen = r.list.find((m) => m.is_default) ?? r.list[0] ?? null;
          setModel(chosen);
          timer = setTimeout(check, chosen && anyStarting([chosen]) ? 2000 : 15000);
        })
        .catch(() => {
          if (live) timer = setTimeout(check, 5000);
        });
    };
    check();
    const now = () => {
      clearTimeout(timer);
      check();
    };
    window.addEventListener(CHANGED, now);
    return () => {
      live = false;
      clearTimeout(timer);
      window.removeEventListener(CHANGED, now);
    };
  }, []);
  if (!model) return <span className="header-model muted" id="header-model">{t("models.none")}</span>;
  return (
    <span className="header-model" id="header-model" data-state={model.state}>
      <span data-user>{model.name}</span> <StateBadge model={model} /> <StateDetail model={model} compact />
    </span>
  );
}
