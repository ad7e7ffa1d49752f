// What the chat model is doing, as the header and the Models page show it: a local model
// Deskmate runs is loading, ready or stopped (with why); another server is "remote".
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, Schemas } from "./api";

export type ServingState = Schemas["ServingState"];

/** What the header and the badge read of a model (LLM or ASR). */
export type Serving = Pick<Schemas["LlmModelView"], "id" | "name" | "is_default" | "state" | "state_detail">;

/// The badge for a model's state.
export function StateBadge({ model }: { model: Serving }) {
  const { t } = useTranslation();
  if (!model.state) return null;
  const tone = model.state === "ready" ? "done" : model.state === "stopped" ? "failed" : model.state === "starting" ? "running" : "";
  return (
    <span className={`badge ${tone}`} data-state={model.state} title={model.state === "stopped" ? t("models.stoppedHint") : undefined}>
      {t(`models.state.${model.state}`)}
    </span>
  );
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
          timer = setTimeout(check, chosen?.state === "starting" ? 2000 : 15000);
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
      <span data-user>{model.name}</span> <StateBadge model={model} />
      {model.state === "stopped" && <small className="muted"> {t("models.stoppedHint")}</small>}
    </span>
  );
}
