// MCP servers whose tools Deskmate imports: each with its status (starting, running with
// its tools, failed with the reason, disabled), added one by one or from a pasted Claude
// Desktop configuration. Env and header values are secrets: they read back as ••••.
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, Schemas } from "../api";
import { ErrorBox, Field } from "../components";

type Status = Schemas["McpStatus"];

export type McpServer = Schemas["McpServerView"];

/** An imported tool whose definition changed since it was accepted (disabled). */
type ChangedTool = Schemas["ChangedTool"];

/** The fields of two definitions that differ, as [field, before, now] in JSON. */
export function differences(pinned: ChangedTool["pinned"], now: ChangedTool["now"]): [string, string, string][] {
  const fields = Array.from(new Set([...Object.keys(pinned), ...Object.keys(now)])).sort();
  return fields
    .map((f): [string, string, string] => [f, JSON.stringify(pinned[f] ?? null, null, 1), JSON.stringify(now[f] ?? null, null, 1)])
    .filter(([, before, after]) => before !== after);
}

/** `KEY=value` (env) or `Name: value` (headers) lines as an object. */
export function pairs(text: string, separator: "=" | ":"): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const at = line.indexOf(separator);
    if (at > 0) out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

function StatusBadge({ status }: { status: Status }) {
  const { t } = useTranslation();
  const text =
    status.state === "running"
      ? t("mcp.running", { count: status.tools ?? 0, protocol: status.protocol ?? "" })
      : status.state === "failed"
        ? t("mcp.failed", { reason: status.reason ?? "" })
        : t(`mcp.state.${status.state}`);
  return <span className={`badge ${status.state}`}>{text}</span>;
}

export function Mcp() {
  const { t } = useTranslation();
  const [servers, setServers] = useState<McpServer[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [kind, setKind] = useState<"command" | "url">("command");
  const [name, setName] = useState("");
  const [command, setCommand] = useState("");
  const [args, setArgs] = useState("");
  const [env, setEnv] = useState("");
  const [url, setUrl] = useState("");
  const [headers, setHeaders] = useState("");
  const [config, setConfig] = useState("");

  const load = useCallback(async () => {
    try {
      setServers((await api<{ list: McpServer[] }>("GET", "/mcp/servers")).list);
      setError(null);
    } catch (e) {
      setError(e);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  // While a server is starting, its status is looked at again every two seconds.
  const starting = servers.some((s) => s.status.state === "starting");
  useEffect(() => {
    if (!starting) return;
    const timer = setInterval(() => void load(), 2000);
    return () => clearInterval(timer);
  }, [starting, load]);

  async function run(work: () => Promise<unknown>) {
    try {
      await work();
      setError(null);
      await load();
      return true;
    } catch (e) {
      setError(e);
      return false;
    }
  }

  async function add() {
    const body =
      kind === "command"
        ? { name, command, args: args.split("\n").map((a) => a.trim()).filter(Boolean), env: pairs(env, "=") }
        : { name, url, headers: pairs(headers, ":") };
    if (await run(() => api("POST", "/mcp/servers", body))) {
      setName("");
      setCommand("");
      setArgs("");
      setEnv("");
      setUrl("");
      setHeaders("");
    }
  }

  async function importConfig() {
    let parsed: unknown;
    try {
      parsed = JSON.parse(config);
    } catch (e) {
      setError(new Error(t("mcp.badJson", { message: String(e) })));
      return;
    }
    if (await run(() => api("POST", "/mcp/import", parsed))) setConfig("");
  }

  return (
    <section className="mcp">
      <p className="muted">{t("mcp.intro")}</p>
      <ErrorBox error={error} />
      <table id="mcp-servers">
        <thead>
          <tr>
            <th>{t("mcp.name")}</th>
            <th>{t("mcp.how")}</th>
            <th>{t("mcp.status")}</th>
            <th>{t("mcp.tools")}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {servers.length === 0 && (
            <tr>
              <td colSpan={5} className="muted">{t("mcp.empty")}</td>
            </tr>
          )}
          {servers.map((s) => (
            <tr key={s.name} data-server={s.name}>
              <td data-user>{s.name}</td>
              <td>
                <code>{s.url ?? [s.command, ...(s.args ?? [])].join(" ")}</code>
              </td>
              <td>
                <StatusBadge status={s.status} />
              </td>
              <td>
                {s.tools.length > 0 && (
                  <details>
                    <summary>{s.tools.length}</summary>
                    <ul>
                      {s.tools.map((id) => (
                        <li key={id}>
                          <code>{id}</code>
                        </li>
                      ))}
                    </ul>
                  </details>
                )}
              </td>
              <td>
                <label className="inline">
                  <input
                    type="checkbox"
                    checked={s.enabled}
                    onChange={(e) =>
                      void run(() => api("PUT", `/mcp/servers/${encodeURIComponent(s.name)}`, { ...s, enabled: e.target.checked }))
                    }
                  />{" "}
                  {t("common.enabled")}
                </label>{" "}
                <button
                  type="button"
                  onClick={() => {
                    if (window.confirm(t("common.confirmDelete", { name: s.name })))
                      void run(() => api("DELETE", `/mcp/servers/${encodeURIComponent(s.name)}`));
                  }}
                >
                  {t("common.delete")}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      {servers
        .filter((s) => s.changed.length > 0)
        .map((s) => (
          <div key={s.name} className="changed" data-changed={s.name}>
            <h3>{t("mcp.changedTitle", { name: s.name })}</h3>
            <p className="muted">{t("mcp.changedIntro")}</p>
            {s.changed.map((c) => (
              <div key={c.tool}>
                <h4>
                  <code>{c.id}</code>
                </h4>
                <table>
                  <thead>
                    <tr>
                      <th>{t("mcp.field")}</th>
                      <th>{t("mcp.before")}</th>
                      <th>{t("mcp.now")}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {differences(c.pinned, c.now).map(([field, before, after]) => (
                      <tr key={field}>
                        <td>{field}</td>
                        <td>
                          <pre>{before}</pre>
                        </td>
                        <td>
                          <pre>{after}</pre>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                <button
                  type="button"
                  onClick={() =>
                    void run(() =>
                      api("POST", `/mcp/servers/${encodeURIComponent(s.name)}/tools/${encodeURIComponent(c.tool)}/approve`),
                    )
                  }
                >
                  {t("mcp.approve")}
                </button>
              </div>
            ))}
          </div>
        ))}

      <h3>{t("mcp.add")}</h3>
      <form
        id="mcp-add"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <Field label={t("mcp.name")}>
          <input id="mcp-name" data-user value={name} onChange={(e) => setName(e.target.value)} placeholder="filesystem" />
        </Field>
        <Field label={t("mcp.how")}>
          <select id="mcp-kind" value={kind} onChange={(e) => setKind(e.target.value as "command" | "url")}>
            <option value="command">{t("mcp.command")}</option>
            <option value="url">{t("mcp.url")}</option>
          </select>
        </Field>
        {kind === "command" ? (
          <>
            <Field label={t("mcp.command")}>
              <input id="mcp-command" data-user value={command} onChange={(e) => setCommand(e.target.value)} placeholder="npx" />
            </Field>
            <Field label={t("mcp.args")}>
              <textarea id="mcp-args" rows={3} value={args} onChange={(e) => setArgs(e.target.value)} />
            </Field>
            <Field label={t("mcp.env")}>
              <textarea id="mcp-env" rows={2} value={env} onChange={(e) => setEnv(e.target.value)} placeholder="API_TOKEN=…" />
            </Field>
          </>
        ) : (
          <>
            <Field label={t("mcp.url")}>
              <input id="mcp-url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="http://127.0.0.1:3000/mcp" />
            </Field>
            <Field label={t("mcp.headers")}>
              <textarea id="mcp-headers" rows={2} value={headers} onChange={(e) => setHeaders(e.target.value)} placeholder="Authorization: Bearer …" />
            </Field>
          </>
        )}
        <button type="submit">{t("mcp.addButton")}</button>
      </form>

      <h3>{t("mcp.import")}</h3>
      <Field label={t("mcp.importLabel")}>
        <textarea id="mcp-import" rows={6} value={config} onChange={(e) => setConfig(e.target.value)} placeholder='{"mcpServers": {"filesystem": {"command": "npx", "args": ["@modelcontextprotocol/server-filesystem", "/home/me"]}}}' />
      </Field>
      <button type="button" id="mcp-import-button" disabled={!config.trim()} onClick={() => void importConfig()}>
        {t("mcp.importButton")}
      </button>
    </section>
  );
}
