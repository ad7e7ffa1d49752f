// LLM and ASR models: add, edit, delete; "send test message" to an LLM, the ASR checks
// for an ASR model. API keys go in and come back masked.
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../api";
import type { components } from "../api-types";
import { ErrorBox, Field } from "../components";
import { checkText } from "../display";
import { modelsChanged, StateBadge } from "../modelState";

type Kind = "llm" | "asr";
type Schemas = components["schemas"];
/** A model's body as the API declares it: what an add and a change both take. */
type LlmBody = Schemas["NewLlmModel"] & Schemas["LlmModelChange"];
type AsrBody = Schemas["NewAsrModel"] & Schemas["AsrModelChange"];

type Model = Schemas["LlmModelView"] | Schemas["AsrModelView"];

export function Models() {
  return (
    <section className="models">
      <ModelTable kind="llm" />
      <ModelTable kind="asr" />
    </section>
  );
}

function ModelTable({ kind }: { kind: Kind }) {
  const { t } = useTranslation();
  const [models, setModels] = useState<Model[]>([]);
  const [editing, setEditing] = useState<Model | "new" | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [testing, setTesting] = useState<Model | null>(null);
  const load = useCallback(() => {
    api<{ list: Model[] }>("GET", `/models/${kind}`)
      .then((r) => {
        setModels(r.list);
        if (kind === "llm") modelsChanged();
      })
      .catch(setError);
  }, [kind]);
  useEffect(load, [load]);
  const remove = async (m: Model) => {
    if (!window.confirm(t("common.confirmDelete", { name: m.name }))) return;
    try {
      await api("DELETE", `/models/${kind}/${encodeURIComponent(m.id)}`);
      load();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <div className="model-table" id={`models-${kind}`}>
      <header className="detail-head">
        <h2>{t(`models.${kind}`)}</h2>
        <button type="button" className="primary" id={`model-add-${kind}`} onClick={() => setEditing("new")}>
          {t("models.add")}
        </button>
      </header>
      <ErrorBox error={error} />
      <table>
        <thead>
          <tr>
            <th>{t("models.name")}</th>
            <th>{t("models.model")}</th>
            <th>{t("models.baseUrl")}</th>
            <th>{t("models.isDefault")}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {models.length === 0 && (
            <tr>
              <td colSpan={5} className="muted">{t("models.empty")}</td>
            </tr>
          )}
          {models.map((m) => (
            <tr key={m.id} data-model-id={m.id}>
              <td>
                <span data-user>{m.name}</span> {m.managed && <span className="badge">{t("models.managed")}</span>} <StateBadge model={m} />
              </td>
              <td><code>{m.model}</code></td>
              <td><code>{m.base_url}</code></td>
              <td>{m.is_default ? "✓" : ""}</td>
              <td className="actions">
                <button type="button" onClick={() => setTesting(m)}>{kind === "llm" ? t("models.testMessage") : t("models.test")}</button>
                <button type="button" onClick={() => setEditing(m)}>{t("common.edit")}</button>
                <button type="button" className="danger" onClick={() => void remove(m)}>{t("common.delete")}</button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {editing && (
        <ModelEditor
          kind={kind}
          model={editing === "new" ? null : editing}
          onDone={() => {
            setEditing(null);
            load();
          }}
        />
      )}
      {testing && <ModelTest key={testing.id} kind={kind} model={testing} onClose={() => setTesting(null)} />}
    </div>
  );
}

function ModelEditor({ kind, model, onDone }: { kind: Kind; model: Model | null; onDone: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(model?.name ?? "");
  const [baseUrl, setBaseUrl] = useState(model?.base_url ?? "");
  const [modelName, setModelName] = useState(model?.model ?? "");
  const [apiKey, setApiKey] = useState("");
  const llm = model && "temperature" in model ? model : null;
  const asr = model && "hotwords" in model ? model : null;
  const [temperature, setTemperature] = useState(String(llm?.temperature ?? 0.7));
  const [maxTokens, setMaxTokens] = useState(String(llm?.max_tokens ?? 1024));
  const [language, setLanguage] = useState(asr?.language ?? "");
  const [hotwords, setHotwords] = useState((asr?.hotwords ?? []).join(", "));
  const [isDefault, setIsDefault] = useState(model?.is_default ?? false);
  const [error, setError] = useState<unknown>(null);
  const save = async () => {
    const common = { name, base_url: baseUrl, model: modelName, is_default: isDefault, ...(apiKey ? { api_key: apiKey } : {}) };
    const body: LlmBody | AsrBody = kind === "llm"
      ? { ...common, temperature: Number(temperature), max_tokens: Number(maxTokens) }
      : {
        ...common,
        language: (language || null) as AsrBody["language"],
        hotwords: hotwords.split(/[,，]/).map((w) => w.trim()).filter(Boolean),
      };
    try {
      if (model) await api("PUT", `/models/${kind}/${encodeURIComponent(model.id)}`, body);
      else await api("POST", `/models/${kind}`, body);
      onDone();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <form className="editor" id={`model-editor-${kind}`} onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <div className="row-fields">
        <Field label={t("models.name")}><input value={name} onChange={(e) => setName(e.target.value)} required /></Field>
        <Field label={t("models.baseUrl")}><input value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} placeholder="http://127.0.0.1:8080/v1" required /></Field>
        <Field label={t("models.model")}><input value={modelName} onChange={(e) => setModelName(e.target.value)} required /></Field>
        <Field label={t("models.apiKey")}>
          <input type="password" autoComplete="off" value={apiKey} onChange={(e) => setApiKey(e.target.value)} placeholder={model?.api_key ?? ""} />
        </Field>
      </div>
      <div className="row-fields">
        {kind === "llm" ? (
          <>
            <Field label={t("models.temperature")}><input type="number" step="0.1" min={0} max={2} value={temperature} onChange={(e) => setTemperature(e.target.value)} /></Field>
            <Field label={t("models.maxTokens")}><input type="number" min={1} value={maxTokens} onChange={(e) => setMaxTokens(e.target.value)} /></Field>
          </>
        ) : (
          <>
            <Field label={t("models.language")}><input value={language} onChange={(e) => setLanguage(e.target.value)} placeholder="zh" /></Field>
            <Field label={t("models.hotwords")}><input value={hotwords} onChange={(e) => setHotwords(e.target.value)} /></Field>
          </>
        )}
        <label className="check">
          <input type="checkbox" checked={isDefault} onChange={(e) => setIsDefault(e.target.checked)} /> {t("models.isDefault")}
        </label>
      </div>
      <ErrorBox error={error} />
      <div className="actions">
        <button type="submit" className="primary">{t("common.save")}</button>
        <button type="button" onClick={onDone}>{t("common.cancel")}</button>
      </div>
    </form>
  );
}

function ModelTest({ kind, model, onClose }: { kind: Kind; model: Model; onClose: () => void }) {
  const { t } = useTranslation();
  const [message, setMessage] = useState("Hello, this is a test message.");
  const { i18n } = useTranslation();
  // The answer with how long the request took and when it came back.
  const [answer, setAnswer] = useState<{ body: any; ms: number; at: Date } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    setAnswer(null);
    setError(null);
    const started = performance.now();
    try {
      const body =
        kind === "llm"
          ? await api("POST", `/tools/test-message?${new URLSearchParams({ llm_model_id: model.id, message })}`)
          : await api("POST", `/tools/autotest/asr/${encodeURIComponent(model.id)}`);
      setAnswer({ body, ms: performance.now() - started, at: new Date() });
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  // An ASR check needs no input: opening the box runs it (one click, not two).
  useEffect(() => {
    if (kind === "asr") void run();
    // Once per model: the box is keyed by the model's id.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const label = answer && (
    <p className="muted" id="model-test-label">
      {t("models.answered", {
        model: model.name,
        seconds: (answer.ms / 1000).toLocaleString(i18n.language, { maximumFractionDigits: 1 }),
        time: answer.at.toLocaleTimeString(i18n.language),
      })}
    </p>
  );
  return (
    <div className="test-box" id={`model-test-${kind}`} data-model-id={model.id}>
      <h3>{t("models.testing", { model: model.name })}</h3>
      {kind === "llm" && (
        <Field label={t("models.message")}><input value={message} onChange={(e) => setMessage(e.target.value)} /></Field>
      )}
      <div className="actions">
        <button type="button" className="primary" disabled={busy} onClick={() => void run()}>
          {busy ? t("common.loading") : kind === "llm" ? t("models.testMessage") : t("models.testAgain")}
        </button>
        <button type="button" onClick={onClose}>{t("common.close")}</button>
      </div>
      <ErrorBox error={error} />
      {label}
      {answer && kind === "llm" && (
        <p className="reply">
          <strong>{t("models.reply")}:</strong> <span data-user>{answer.body.reply || answer.body.error}</span>
        </p>
      )}
      {answer && kind === "asr" && (
        <ul>
          {answer.body.tests.map((c: any) => (
            <li key={c.name} className={c.passed ? "ok-text" : "error-text"}>
              {c.passed ? "✓" : "✗"} {checkText(c, i18n.language).name}: {checkText(c, i18n.language).message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
