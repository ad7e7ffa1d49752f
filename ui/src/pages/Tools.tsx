// Tools: the list (category / enabled filters, pages), a tool's details, a "try it" form
// generated from its schema, and the HTTP tool editor (JSON-Schema editor checked as you
// type, headers with secret references, policy). Secrets are set here and never shown.
import { useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import Form from "@rjsf/core";
import { customizeValidator } from "@rjsf/validator-ajv8";
import Ajv2020 from "ajv/dist/2020";
import CodeMirror from "@uiw/react-codemirror";
import { json } from "@codemirror/lang-json";
import { api, ApiError, Schemas, ToolResult } from "../api";
import { ErrorBox, Field, Json, Pager, ResultView } from "../components";
import { checkSchema, syntaxError } from "../schema";
import { dateTime, isZh, schemaForPeople, shownDescription, shownName } from "../display";

export const validator = customizeValidator({ AjvClass: Ajv2020 as any, ajvOptionsOverrides: { strict: false } });
const LIMIT = 20;

export type Resource = Schemas["ToolResource"];

type Listing = Schemas["Page_ToolResource"];

export function Tools() {
  const { t, i18n } = useTranslation();
  const [category, setCategory] = useState("");
  const [enabled, setEnabled] = useState("");
  const [page, setPage] = useState(1);
  const [listing, setListing] = useState<Listing | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [selected, setSelected] = useState<Resource | null>(null);
  const [editing, setEditing] = useState<Resource | "new" | null>(null);
  const [notice, setNotice] = useState("");

  const load = useCallback(async () => {
    const query = new URLSearchParams({ page: String(page), limit: String(LIMIT) });
    if (category) query.set("category", category);
    if (enabled) query.set("enabled", enabled);
    try {
      setListing(await api<Listing>("GET", `/tools/resources?${query}`));
      setError(null);
    } catch (e) {
      setError(e);
    }
  }, [category, enabled, page]);
  useEffect(() => {
    void load();
  }, [load]);

  // The selected tool as listed now (it may be on another page than the one shown).
  const current = listing?.list.find((r) => r.id === selected?.id) ?? selected;
  const saved = (resource: Resource, created: boolean) => {
    setEditing(null);
    setSelected(resource);
    setNotice(created ? t("tools.created", { id: resource.id }) : t("common.saved"));
    void load();
  };

  return (
    <section className="tools two-pane">
      <div className="pane list-pane">
        <div className="toolbar">
          <label className="inline">
            {t("tools.filterCategory")}{" "}
            <select id="filter-category" value={category} onChange={(e) => { setCategory(e.target.value); setPage(1); }}>
              <option value="">{t("common.all")}</option>
              <option value="query">{t("tools.query")}</option>
              <option value="system">{t("tools.system")}</option>
            </select>
          </label>
          <label className="inline">
            {t("tools.filterEnabled")}{" "}
            <select id="filter-enabled" value={enabled} onChange={(e) => { setEnabled(e.target.value); setPage(1); }}>
              <option value="">{t("common.all")}</option>
              <option value="true">{t("common.enabled")}</option>
              <option value="false">{t("common.disabled")}</option>
            </select>
          </label>
          <button type="button" id="tool-new" className="primary" onClick={() => { setEditing("new"); setNotice(""); }}>
            {t("tools.create")}
          </button>
        </div>
        <ErrorBox error={error} />
        {notice && <p className="notice" role="status" id="tool-notice">{notice}</p>}
        <ul className="rows" id="tool-list">
          {listing?.list.length === 0 && <li className="muted">{t("tools.noTools")}</li>}
          {listing?.list.map((r) => (
            <li key={r.id}>
              <button
                type="button"
                className={r.id === selected?.id ? "row selected" : "row"}
                data-tool-id={r.id}
                onClick={() => { setSelected(r); setEditing(null); }}
              >
                <span className="name" data-user={r.display ? undefined : ""}>{shownName(r, i18n.language)}</span>
                <code>{r.id}</code>
                <span className={`badge ${r.category}`}>{t(`tools.${r.category === "system" ? "system" : "query"}`)}</span>
                {!r.enabled && <span className="badge off">{t("common.disabled")}</span>}
                {!r.is_system && <span className="badge http">{t("tools.http")}</span>}
              </button>
            </li>
          ))}
        </ul>
        {listing && <Pager page={listing.page} limit={listing.limit} total={listing.total} onPage={setPage} />}
        <Secrets />
      </div>
      <div className="pane detail-pane">
        {editing ? (
          <ToolEditor resource={editing === "new" ? null : editing} onSaved={saved} onCancel={() => setEditing(null)} />
        ) : current ? (
          <ToolDetail
            key={current.id}
            resource={current}
            onEdit={() => setEditing(current)}
            onDeleted={() => {
              setNotice(t("tools.deleted", { id: current.id }));
              setSelected(null);
              void load();
            }}
          />
        ) : (
          <p className="muted">{t("tools.select")}</p>
        )}
      </div>
    </section>
  );
}

function ToolDetail({ resource, onEdit, onDeleted }: { resource: Resource; onEdit: () => void; onDeleted: () => void }) {
  const { t, i18n } = useTranslation();
  const [error, setError] = useState<unknown>(null);
  const remove = async () => {
    if (!window.confirm(t("common.confirmDelete", { name: shownName(resource, i18n.language) }))) return;
    try {
      await api("DELETE", `/tools/resources/${encodeURIComponent(resource.id)}`);
      onDeleted();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <article id="tool-detail" data-tool-id={resource.id}>
      <header className="detail-head">
        <h2 data-user={resource.display ? undefined : ""}>{shownName(resource, i18n.language)}</h2>
        <div className="actions">
          <button type="button" id="tool-edit" onClick={onEdit}>{t("common.edit")}</button>
          {!resource.is_system && (
            <button type="button" id="tool-delete" className="danger" onClick={remove}>{t("common.delete")}</button>
          )}
        </div>
      </header>
      <ErrorBox error={error} />
      <p id="tool-description-text" data-user={resource.display ? undefined : ""}>{shownDescription(resource, i18n.language)}</p>
      <dl className="fields">
        <dt>{t("tools.id")}</dt>
        <dd><code>{resource.id}</code></dd>
        <dt>{t("tools.category")}</dt>
        <dd>{t(`tools.${resource.category === "system" ? "system" : "query"}`)}</dd>
        <dt>{t("tools.sideEffect")}</dt>
        <dd>{t(`tools.effect.${resource.side_effect}`, { defaultValue: resource.side_effect })}</dd>
        <dt>{t("tools.policy")}</dt>
        <dd id="tool-policy">{resource.policy ? t(`tools.${resource.policy}`) : t("tools.policyDefault")}</dd>
        {resource.http_url && (
          <>
            <dt>{t("tools.url")}</dt>
            <dd><code>{resource.http_method} {resource.http_url}</code></dd>
            <dt>{t("tools.headers")}</dt>
            <dd><Json value={resource.http_headers} /></dd>
          </>
        )}
      </dl>
      <Approvals tool={resource.id} />
      <details>
        <summary>{t("tools.schema")}</summary>
        <Json value={resource.parameter_schema} />
      </details>
      <TryIt resource={resource} />
    </article>
  );
}

type Approval = Schemas["Approval"];

/** The lasting yeses given for a tool ("always", "in a conversation"), each taken back
 * with one click: the tool then asks again. */
function Approvals({ tool }: { tool: string }) {
  const { t, i18n } = useTranslation();
  const [list, setList] = useState<Approval[]>([]);
  const [error, setError] = useState<unknown>(null);
  const load = useCallback(async () => {
    try {
      setList((await api<{ list: Approval[] }>("GET", `/approvals?tool=${encodeURIComponent(tool)}`)).list);
      setError(null);
    } catch (e) {
      setError(e);
    }
  }, [tool]);
  useEffect(() => {
    void load();
  }, [load]);
  const revoke = async (a: Approval) => {
    try {
      await api("DELETE", `/approvals/${encodeURIComponent(a.id)}`);
      void load();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <section id="tool-approvals">
      <h3>{t("tools.approvals")}</h3>
      <ErrorBox error={error} />
      {list.length === 0 ? (
        <p className="muted">{t("tools.noApprovals")}</p>
      ) : (
        <ul className="rows">
          {list.map((a) => (
            <li key={a.id} data-approval={a.id} data-scope={a.scope}>
              {a.scope === "always" ? t("tools.approvedAlways") : t("tools.approvedInConversation", { id: a.conversation_id?.slice(0, 8) ?? "" })}{" "}
              <span className="muted">{dateTime(a.created_at, i18n.language)}</span>{" "}
              <button type="button" className="approval-revoke" onClick={() => void revoke(a)}>
                {t("tools.revoke")}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function TryIt({ resource }: { resource: Resource }) {
  const { t, i18n } = useTranslation();
  const schema = useMemo(() => schemaForPeople(resource.parameter_schema, i18n.language) as any, [resource.parameter_schema, i18n.language]);
  const [result, setResult] = useState<ToolResult | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [running, setRunning] = useState(false);
  const [formData, setFormData] = useState<any>(resource.parameter_defaults ?? {});
  const run = async (data: unknown) => {
    setRunning(true);
    setResult(null);
    setError(null);
    try {
      setResult(await api<ToolResult>("POST", "/tools/call", { tool: resource.id, arguments: data ?? {}, origin: "gui" }));
    } catch (e) {
      setError(e);
    } finally {
      setRunning(false);
    }
  };
  return (
    <section className="try-it" id="try-it">
      <h3>{t("tools.tryIt")}</h3>
      <Form
        schema={schema}
        validator={validator}
        formData={formData}
        onChange={(e) => setFormData(e.formData)}
        onSubmit={(e) => void run(e.formData)}
        showErrorList={false}
        disabled={running}
      >
        <button type="submit" id="try-run" className="primary" disabled={running}>
          {running ? t("chat.running") : t("tools.run")}
        </button>
      </Form>
      <ErrorBox error={error} />
      {result && <div id="try-result"><ResultView result={result} /></div>}
    </section>
  );
}

const EXAMPLE_SCHEMA = `{
  "type": "object",
  "properties": {
    "city": {"type": "string", "description": "City name"}
  },
  "required": ["city"],
  "additionalProperties": false
}`;

function ToolEditor({ resource, onSaved, onCancel }: { resource: Resource | null; onSaved: (r: Resource, created: boolean) => void; onCancel: () => void }) {
  const { t, i18n } = useTranslation();
  const builtIn = resource?.is_system ?? false;
  const [name, setName] = useState(resource?.name ?? "");
  const [id, setId] = useState("");
  const [description, setDescription] = useState(resource?.description ?? "");
  const [method, setMethod] = useState(resource?.http_method ?? "GET");
  // The side effect follows the method (GET reads, anything else writes) until the
  // person picks one; an edit that changes the method derives it again.
  const [sideEffect, setSideEffect] = useState(resource?.side_effect ?? "read");
  const [sideEffectChosen, setSideEffectChosen] = useState(false);
  const changeMethod = (next: string) => {
    setMethod(next);
    if (!sideEffectChosen) setSideEffect(next === "GET" ? "read" : "write");
  };
  const [url, setUrl] = useState(resource?.http_url ?? "");
  const [timeout, setTimeoutMs] = useState(String(resource?.http_timeout_ms ?? 10000));
  const [headers, setHeaders] = useState<[string, string][]>(Object.entries(resource?.http_headers ?? {}));
  const [schemaText, setSchemaText] = useState(resource ? JSON.stringify(resource.parameter_schema, null, 2) : EXAMPLE_SCHEMA);
  const [defaultsText, setDefaultsText] = useState(JSON.stringify(resource?.parameter_defaults ?? {}, null, 2));
  const [policy, setPolicy] = useState(resource?.policy ?? "");
  // Optional: the name and description a person reads in each language.
  const [shown, setShown] = useState({
    nameZh: resource?.display?.name.zh ?? "",
    nameEn: resource?.display?.name.en ?? "",
    descriptionZh: resource?.display?.description.zh ?? "",
    descriptionEn: resource?.display?.description.en ?? "",
  });
  const setShownField = (field: keyof typeof shown) => (e: { target: { value: string } }) => setShown({ ...shown, [field]: e.target.value });
  const [enabled, setEnabledFlag] = useState(resource?.enabled ?? true);
  const [error, setError] = useState<unknown>(null);
  const checked = useMemo(() => checkSchema(schemaText), [schemaText]);
  const defaults = useMemo(() => {
    try {
      return { value: JSON.parse(defaultsText), problem: "" };
    } catch {
      const at = syntaxError(defaultsText);
      return { value: undefined, problem: t(at.found ? "schemaCheck.syntax" : "schemaCheck.syntaxEnd", at) };
    }
  }, [defaultsText, t]);

  const save = async () => {
    setError(null);
    let body: Record<string, unknown>;
    const anyShown = Object.values(shown).some((v) => v.trim());
    if (!builtIn && anyShown && (!shown.nameZh.trim() || !shown.nameEn.trim())) {
      setError(new ApiError(422, t("tools.displayNeedsNames")));
      return;
    }
    if (builtIn) {
      body = { enabled, policy: policy || null };
    } else {
      body = {
        name,
        description,
        category: "query",
        http_method: method,
        side_effect: sideEffect,
        http_url: url,
        http_headers: Object.fromEntries(headers.filter(([k]) => k.trim())),
        http_timeout_ms: Number(timeout),
        parameter_schema: checked.schema,
        parameter_defaults: defaults.value ?? {},
        enabled,
        policy: policy || null,
        display: anyShown
          ? {
              name: { zh: shown.nameZh.trim(), en: shown.nameEn.trim() },
              description: { zh: shown.descriptionZh.trim(), en: shown.descriptionEn.trim() },
            }
          : null,
      };
      if (!resource && id.trim()) body.id = id.trim();
    }
    try {
      const saved = resource
        ? await api<Resource>("PUT", `/tools/resources/${encodeURIComponent(resource.id)}`, body)
        : await api<Resource>("POST", "/tools/resources", body);
      onSaved(saved, !resource);
    } catch (e) {
      setError(e);
    }
  };

  const invalid = !builtIn && (checked.problems.length > 0 || !!defaults.problem);
  return (
    <form
      id="tool-editor"
      className="editor"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2>{resource ? `${t("common.edit")}: ${shownName(resource, i18n.language)}` : t("tools.create")}</h2>
      {!builtIn && (
        <>
          <Field label={t("tools.name")}>
            <input id="tool-name" value={name} onChange={(e) => setName(e.target.value)} required />
          </Field>
          {!resource && (
            <Field label={t("tools.id")}>
              <input id="tool-id" value={id} onChange={(e) => setId(e.target.value)} placeholder="weather_lookup" pattern="[a-z0-9_]*" />
            </Field>
          )}
          <Field label={t("tools.description")}>
            <textarea id="tool-description" value={description} onChange={(e) => setDescription(e.target.value)} rows={2} />
          </Field>
          <details className="display-fields" open={Object.values(shown).some((v) => v)}>
            <summary>{t("tools.display")}</summary>
            <p className="muted">{t("tools.displayHelp")}</p>
            <div className="row-fields">
              <Field label={t("tools.nameZh")}>
                <input id="tool-name-zh" value={shown.nameZh} onChange={setShownField("nameZh")} maxLength={100} />
              </Field>
              <Field label={t("tools.nameEn")}>
                <input id="tool-name-en" value={shown.nameEn} onChange={setShownField("nameEn")} maxLength={100} />
              </Field>
            </div>
            <Field label={t("tools.descriptionZh")}>
              <input id="tool-description-zh" value={shown.descriptionZh} onChange={setShownField("descriptionZh")} maxLength={1000} />
            </Field>
            <Field label={t("tools.descriptionEn")}>
              <input id="tool-description-en" value={shown.descriptionEn} onChange={setShownField("descriptionEn")} maxLength={1000} />
            </Field>
          </details>
          <div className="row-fields">
            <Field label={t("tools.method")}>
              <select id="tool-method" value={method} onChange={(e) => changeMethod(e.target.value)}>
                {["GET", "POST", "PUT", "PATCH", "DELETE"].map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </select>
            </Field>
            <Field label={t("tools.sideEffect")}>
              <select
                id="tool-side-effect"
                value={sideEffect}
                onChange={(e) => {
                  setSideEffect(e.target.value);
                  setSideEffectChosen(true);
                }}
              >
                {["read", "write", "irreversible"].map((s) => (
                  <option key={s} value={s}>{t(`tools.effect.${s}`)}</option>
                ))}
              </select>
            </Field>
            <Field label={t("tools.url")}>
              <input id="tool-url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://api.example.com/weather" required />
            </Field>
            <Field label={t("tools.timeout")}>
              <input id="tool-timeout" type="number" min={100} max={120000} value={timeout} onChange={(e) => setTimeoutMs(e.target.value)} />
            </Field>
          </div>
          <fieldset>
            <legend>{t("tools.headers")}</legend>
            {headers.map(([k, v], i) => (
              <div className="row-fields" key={i}>
                <input aria-label={t("tools.headerName")} value={k} onChange={(e) => setHeaders(headers.map((h, j) => (j === i ? [e.target.value, h[1]] : h)))} />
                <input aria-label={t("tools.headerValue")} value={v} onChange={(e) => setHeaders(headers.map((h, j) => (j === i ? [h[0], e.target.value] : h)))} />
                <button type="button" onClick={() => setHeaders(headers.filter((_, j) => j !== i))}>{t("common.delete")}</button>
              </div>
            ))}
            <button type="button" id="tool-add-header" onClick={() => setHeaders([...headers, ["", ""]])}>{t("tools.addHeader")}</button>
            <p className="muted">{t("tools.secretHelp")}</p>
          </fieldset>
          <div className="field">
            <span>{t("tools.schema")}</span>
            <div id="tool-schema" className="code">
              <CodeMirror value={schemaText} height="200px" extensions={[json()]} onChange={setSchemaText} basicSetup={{ lineNumbers: true }} />
            </div>
            {checked.problems.length === 0 ? (
              <p className="ok-text" id="schema-status">{t("tools.schemaValid")}</p>
            ) : (
              <ul className="problems" id="schema-problems" role="alert">
                {checked.problems.map((p, i) => (
                  <li key={i} data-code={p.code}>
                    {p.path && <code>{p.path}</code>} {t(`schemaCheck.${p.code}`, p.params)}
                  </li>
                ))}
              </ul>
            )}
          </div>
          <div className="field">
            <span>{t("tools.defaults")}</span>
            <div id="tool-defaults" className="code">
              <CodeMirror value={defaultsText} height="80px" extensions={[json()]} onChange={setDefaultsText} />
            </div>
            {defaults.problem && <p className="problems" role="alert">{defaults.problem}</p>}
          </div>
        </>
      )}
      <div className="row-fields">
        <Field label={t("tools.policy")}>
          <select id="tool-policy-select" value={policy} onChange={(e) => setPolicy(e.target.value)}>
            <option value="">{t("tools.policyDefault")}</option>
            <option value="always">{t("tools.always")}</option>
            <option value="ask">{t("tools.ask")}</option>
            <option value="never">{t("tools.never")}</option>
          </select>
        </Field>
        <label className="check">
          <input id="tool-enabled" type="checkbox" checked={enabled} onChange={(e) => setEnabledFlag(e.target.checked)} /> {t("common.enabled")}
        </label>
      </div>
      <ErrorBox error={error} />
      <div className="actions">
        <button type="submit" id="tool-save" className="primary" disabled={invalid}>{t("common.save")}</button>
        <button type="button" onClick={onCancel}>{t("common.cancel")}</button>
      </div>
    </form>
  );
}

function Secrets() {
  const { t, i18n } = useTranslation();
  const [names, setNames] = useState<string[]>([]);
  const [store, setStore] = useState<{ backend: "keyring" | "file"; detail: string; detail_zh?: string } | null>(null);
  const [name, setName] = useState("");
  const [value, setValue] = useState("");
  const [error, setError] = useState<unknown>(null);
  const load = useCallback(() => {
    api<{ names: string[]; store?: { backend: "keyring" | "file"; detail: string; detail_zh?: string } }>("GET", "/secrets")
      .then((r) => {
        setNames(r.names);
        setStore(r.store ?? null);
      })
      .catch(setError);
  }, []);
  useEffect(load, [load]);
  const set = async () => {
    try {
      await api("PUT", `/secrets/${encodeURIComponent(name)}`, { value });
      setName("");
      setValue("");
      setError(null);
      load();
    } catch (e) {
      setError(e);
    }
  };
  const remove = async (n: string) => {
    try {
      await api("DELETE", `/secrets/${encodeURIComponent(n)}`);
      load();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <section className="secrets" id="secrets">
      <h3>{t("tools.secrets")}</h3>
      {store && (
        <p id="secret-store" data-backend={store.backend} className={store.backend === "keyring" ? "ok-text" : "muted"} title={isZh(i18n.language) ? store.detail_zh ?? store.detail : store.detail}>
          {store.backend === "keyring" ? t("tools.storeKeyring") : t("tools.storeFile")}
        </p>
      )}
      <ul>
        {names.map((n) => (
          <li key={n}>
            <code>{n}</code> <span className="masked">••••••••</span>{" "}
            <button type="button" onClick={() => void remove(n)}>{t("common.delete")}</button>
          </li>
        ))}
      </ul>
      <form className="row-fields" onSubmit={(e) => { e.preventDefault(); void set(); }}>
        <input aria-label={t("tools.secretName")} placeholder={t("tools.secretName")} value={name} onChange={(e) => setName(e.target.value)} required />
        <input aria-label={t("tools.secretValue")} placeholder={t("tools.secretValue")} type="password" autoComplete="off" value={value} onChange={(e) => setValue(e.target.value)} required />
        <button type="submit">{t("tools.setSecret")}</button>
      </form>
      <ErrorBox error={error} />
    </section>
  );
}
