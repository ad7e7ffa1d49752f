// How full the model's context was at the open conversation's last turn: a small bar
// near the composer, the tool catalog's share and the conversation's, the numbers on
// hover. Read from `GET /conversations/{id}` (`context`) when the conversation opens and
// after each turn; hidden until a turn was measured.
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, Schemas } from "../api";

type ContextUse = Schemas["ContextUse"];

/** Percent of `n_ctx` that `part` is, rounded, within 0–100. */
export function share(part: number, n_ctx: number): number {
  if (n_ctx <= 0) return 0;
  return Math.min(100, Math.max(0, Math.round((part / n_ctx) * 100)));
}

export function ContextMeter({ conversation, busy }: { conversation?: string; busy: boolean }) {
  const { t } = useTranslation();
  const [used, setUsed] = useState<ContextUse | null>(null);
  useEffect(() => {
    if (!conversation) {
      setUsed(null);
      return;
    }
    if (busy) return;
    let current = true;
    api<{ context?: ContextUse | null }>("GET", `/conversations/${encodeURIComponent(conversation)}`)
      .then((detail) => current && setUsed(detail.context ?? null))
      .catch(() => current && setUsed(null));
    return () => {
      current = false;
    };
  }, [conversation, busy]);
  if (!used) return null;
  const catalog = share(used.catalog_tokens, used.n_ctx);
  const talk = Math.min(100 - catalog, share(used.conversation_tokens, used.n_ctx));
  const title = t("chat.contextUse", {
    used: used.catalog_tokens + used.conversation_tokens,
    n_ctx: used.n_ctx,
    catalog: used.catalog_tokens,
    catalogShare: catalog,
    conversation: used.conversation_tokens,
    conversationShare: talk,
  });
  const folded = used.folded_until_seq != null ? ` ${t("chat.contextFolded")}` : "";
  return (
    <div
      className="context-meter"
      id="context-meter"
      role="meter"
      aria-label={t("chat.contextLabel")}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={catalog + talk}
      title={title + folded}
    >
      <span className="catalog" style={{ width: `${catalog}%` }} />
      <span className="talk" style={{ width: `${talk}%` }} />
    </div>
  );
}
