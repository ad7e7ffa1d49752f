// The call log: every call through the guard, filterable by tool, outcome and time.
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, Schemas } from "../api";
import { ErrorBox, GuardText, Json, Pager } from "../components";
import { dateTime } from "../display";

/** One call of the log. */
type Event = Schemas["AuditEvent"];

/// Asks the window to show a conversation in the chat (App switches the page, Chat opens it).
export function openConversation(id: string) {
  window.dispatchEvent(new CustomEvent("deskmate:open-conversation", { detail: id }));
}

const LIMIT = 50;

function isTruncated(result: unknown): result is { truncated: true; preview: string } {
  return typeof result === "object" && result !== null && (result as { truncated?: unknown }).truncated === true;
}

export function Audit() {
  const { t, i18n } = useTranslation();
  const [tool, setTool] = useState("");
  const [outcome, setOutcome] = useState("");
  const [since, setSince] = useState("");
  const [page, setPage] = useState(1);
  const [tools, setTools] = useState<string[]>([]);
  const [data, setData] = useState<{ total: number; page: number; limit: number; list: Event[] } | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    api<{ tools: string[] }>("GET", "/tools/health")
      .then((h) => setTools(h.tools))
      .catch(() => setTools([]));
  }, []);
  const load = useCallback(async () => {
    const q = new URLSearchParams({ page: String(page), limit: String(LIMIT) });
    if (tool) q.set("tool", tool);
    if (outcome) q.set("outcome", outcome);
    if (since) q.set("since", new Date(since).toISOString());
    try {
      setData(await api("GET", `/audit?${q}`));
      setError(null);
    } catch (e) {
      setError(e);
    }
  }, [tool, outcome, since, page]);
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section className="audit">
      <div className="toolbar">
        <label className="inline">
          {t("audit.tool")}{" "}
          <select id="audit-tool" value={tool} onChange={(e) => { setTool(e.target.value); setPage(1); }}>
            <option value="">{t("common.all")}</option>
            {tools.map((id) => (
              <option key={id}>{id}</option>
            ))}
          </select>
        </label>
        <label className="inline">
          {t("audit.outcome")}{" "}
          <select id="audit-outcome" value={outcome} onChange={(e) => { setOutcome(e.target.value); setPage(1); }}>
            <option value="">{t("common.all")}</option>
            <option value="ok">{t("audit.ok")}</option>
            <option value="error">{t("audit.failed")}</option>
          </select>
        </label>
        <label className="inline">
          {t("audit.since")}{" "}
          <input id="audit-since" type="datetime-local" value={since} onChange={(e) => { setSince(e.target.value); setPage(1); }} />
        </label>
        <button type="button" onClick={() => void load()}>{t("audit.refresh")}</button>
      </div>
      <ErrorBox error={error} />
      <table id="audit-table">
        <thead>
          <tr>
            <th>{t("audit.time")}</th>
            <th>{t("audit.tool")}</th>
            <th>{t("audit.outcome")}</th>
            <th>{t("audit.duration")}</th>
            <th>{t("audit.origin")}</th>
            <th>{t("chat.arguments")}</th>
          </tr>
        </thead>
        <tbody>
          {data?.list.length === 0 && (
            <tr>
              <td colSpan={6} className="muted">{t("audit.empty")}</td>
            </tr>
          )}
          {data?.list.map((e) => (
            <tr key={e.call_id} data-tool={e.tool} data-ok={String(e.ok)}>
              <td>{dateTime(e.at, i18n.language)}</td>
              <td><code>{e.tool}</code></td>
              <td className={e.ok ? "ok-text" : "error-text"}>{e.ok ? t("audit.ok") : `${t("audit.failed")}: ${t(`errorType.${e.error_type}`, { defaultValue: e.error_type ?? "" })}`}</td>
              <td>{e.duration_ms} ms</td>
              <td>
                {t(`audit.origins.${e.origin}`, { defaultValue: e.origin })}
                {e.client && <span data-user> · {e.client}</span>}
              </td>
              <td>
                <details className="audit-details">
                  <summary>{t("audit.details")}</summary>
                  <h4>{t("chat.arguments")}</h4>
                  <Json value={e.arguments} />
                  {(e.error || e.hint) && (
                    <div className="error-text">
                      <h4>{t("audit.error")}</h4>
                      <GuardText error={e.error} hint={e.hint} />
                    </div>
                  )}
                  {e.result !== undefined && e.result !== null && (
                    <>
                      <h4>{t("audit.result")}</h4>
                      {isTruncated(e.result) ? (
                        <>
                          <p className="muted">{t("audit.truncated")}</p>
                          <pre>{e.result.preview}</pre>
                        </>
                      ) : (
                        <Json value={e.result} />
                      )}
                    </>
                  )}
                  <h4>{t("audit.repairs")}</h4>
                  {e.repairs && e.repairs.length > 0 ? (
                    <ul>
                      {e.repairs.map((r, i) => (
                        <li key={i}>
                          <code>{r.path || "/"}</code> {t(`repair.${r.rule}`, { defaultValue: r.rule })}: {JSON.stringify(r.from)} → {JSON.stringify(r.to)}
                        </li>
                      ))}
                    </ul>
                  ) : (
                    <p className="muted">{t("audit.noRepairs")}</p>
                  )}
                  {e.conversation_id && (
                    <button type="button" className="open-conversation" onClick={() => openConversation(e.conversation_id as string)}>
                      {t("audit.openConversation")}
                    </button>
                  )}
                </details>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {data && <Pager page={data.page} limit={data.limit} total={data.total} onPage={setPage} />}
    </section>
  );
}
