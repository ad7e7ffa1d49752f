// The call log: every call through the guard, filterable by tool, outcome and time.
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../api";
import { ErrorBox, Json, Pager } from "../components";

interface Event {
  call_id: string;
  at: string;
  tool: string;
  arguments: unknown;
  ok: boolean;
  error_type: string | null;
  duration_ms: number;
  origin: string;
  client?: string | null;
}

const LIMIT = 50;

export function Audit() {
  const { t } = useTranslation();
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
              <td>{new Date(e.at).toLocaleString()}</td>
              <td><code>{e.tool}</code></td>
              <td className={e.ok ? "ok-text" : "error-text"}>{e.ok ? t("audit.ok") : `${t("audit.failed")}: ${e.error_type ?? ""}`}</td>
              <td>{e.duration_ms} ms</td>
              <td>{e.client ? `${e.origin} · ${e.client}` : e.origin}</td>
              <td><details><summary>JSON</summary><Json value={e.arguments} /></details></td>
            </tr>
          ))}
        </tbody>
      </table>
      {data && <Pager page={data.page} limit={data.limit} total={data.total} onPage={setPage} />}
    </section>
  );
}
