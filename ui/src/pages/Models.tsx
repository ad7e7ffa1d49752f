// LLM and ASR models: add, edit, delete; "send test message" to an LLM, the ASR checks
// for an ASR model. API keys go in and come back masked. An LLM can also be a GGUF file
// on this computer that Deskmate runs itself: picked in the OS open dialog (a path typed
// in a browser), or added from the model files found in the models folders.
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../api";
import type { components } from "../api-types";
import { ErrorBox, Field } from "../components";
import { checkText } from "../display";
import { addError, anyStarting, fileRow, fileSize, FoundFile, inDesktop, newFileModel, pickModelFile } from "../modelFiles";
import { modelsChanged, StateBadge, StateDetail } from "../modelState";

type Kind = "llm" | "asr";
type Schemas = components["schemas"];
/** A model's body as the API declares it: what an add and a change both take. */
type LlmBody = Schemas["NewLlmModel"] & Schemas["LlmModelChange"];
type AsrBody = Schemas["NewAsrModel"] & Schemas["AsrModelChange"];

type Model = Schemas["LlmModelView"] | Schemas["AsrModelView"];

/** Why adding a model file failed: the first field error and its hint. */
type AddFailure = { message: string; hint: string | null };

export function Models() {
  return (
    <section className="models">
      <ModelTable kind="llm" />
      <ModelTable kind="asr" />
    </section>
  );
}

/** The file a model runs from, when Deskmate runs it from a GGUF file. */
function fileOf(m: Model | null): Schemas["ModelFileView"] | null {
  return (m && "file" in m && m.file) || null;
}

/** What a failed add says, in the page (not in a dialog). */
function AddFailureText({ failure, id }: { failure: AddFailure | null; id: string }) {
  const { t } = useTranslation();
  if (!failure) return null;
  return (
    <p className="error" id={id}>
      <span data-user>{failure.message}</span>
      {failure.hint && (
        <>
          {" — "}
          {t("chat.hint")}: <span data-user>{failure.hint}</span>
        </>
      )}
    </p>
  );
}

function ModelTable({ kind }: { kind: Kind }) {
  const { t } = useTranslation();
  const [models, setModels] = useState<Model[]>([]);
  const [editing, setEditing] = useState<Model | "new" | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [testing, setTesting] = useState<Model | null>(null);
  // Adding a model file: the path field (a browser has no open dialog), the outcome.
  const [typingPath, setTypingPath] = useState(false);
  const [path, setPath] = useState("");
  const [adding, setAdding] = useState(false);
  const [failure, setFailure] = useState<AddFailure | null>(null);
  const [added, setAdded] = useState<Model | null>(null);
  // Bumped when the models change, so the list of files found says which are added.
  const [filesVersion, setFilesVersion] = useState(0);
  const load = useCallback(() => {
    api<{ list: Model[] }>("GET", `/models/${kind}`)
      .then((r) => {
        setModels(r.list);
        if (kind === "llm") modelsChanged();
      })
      .catch(setError);
  }, [kind]);
  useEffect(load, [load]);
  // While a model loads, its state (and progress) is read again every 2 s.
  useEffect(() => {
    if (!anyStarting(models)) return;
    const timer = setTimeout(load, 2000);
    return () => clearTimeout(timer);
  }, [models, load]);
  const changed = () => {
    load();
    setFilesVersion((v) => v + 1);
  };
  const remove = async (m: Model) => {
    if (!window.confirm(t("common.confirmDelete", { name: m.name }))) return;
    try {
      await api("DELETE", `/models/${kind}/${encodeURIComponent(m.id)}`);
      if (added?.id === m.id) setAdded(null);
      changed();
    } catch (e) {
      setError(e);
    }
  };
  /** Adds the model file at `file`: null when added, else why not. */
  const addFile = async (file: string): Promise<AddFailure | null> => {
    try {
      const model = await api<Model>("POST", "/models/llm", newFileModel(file));
      setAdded(model);
      changed();
      return null;
    } catch (e) {
      return addError(e);
    }
  };
  const addPath = async (file: string) => {
    setAdding(true);
    setFailure(null);
    setAdded(null);
    const why = await addFile(file);
    setAdding(false);
    setFailure(why);
    if (!why) {
      setTypingPath(false);
      setPath("");
    }
  };
  const startAddFile = async () => {
    setFailure(null);
    if (!inDesktop()) {
      setTypingPath(true);
      return;
    }
    try {
      const picked = await pickModelFile(t("models.pickTitle"));
      if (picked) await addPath(picked);
    } catch (e) {
      setFailure(addError(e));
    }
  };
  return (
    <div className="model-table" id={`models-${kind}`}>
      <header className="detail-head">
        <h2>{t(`models.${kind}`)}</h2>
        <div className="actions">
          {kind === "llm" && (
            <button type="button" id="model-add-file" disabled={adding} onClick={() => void startAddFile()}>
              {adding ? t("models.adding") : t("models.addFile")}
            </button>
          )}
          <button type="button" className="primary" id={`model-add-${kind}`} onClick={() => setEditing("new")}>
            {t("models.add")}
          </button>
        </div>
      </header>
      {kind === "llm" && typingPath && (
        <form className="row-fields" id="model-file-form" onSubmit={(e) => { e.preventDefault(); void addPath(path); }}>
          <Field label={t("models.filePath")}>
            <input id="model-file-path" value={path} onChange={(e) => setPath(e.target.value)} placeholder="/home/me/models/model.gguf" required />
          </Field>
          <button type="submit" className="primary" id="model-file-submit" disabled={adding}>
            {adding ? t("models.adding") : t("models.addThisFile")}
          </button>
          <button type="button" onClick={() => { setTypingPath(false); setFailure(null); }}>{t("common.cancel")}</button>
        </form>
      )}
      <AddFailureText failure={failure} id="model-file-error" />
      {added && (
        <p className="ok-text" id="model-file-added" data-model-id={added.id}>
          {t("models.addedModel", { name: added.name })}
        </p>
      )}
      <ErrorBox error={error} />
      <table>
        <thead>
          <tr>
            <th>{t("models.name")}</th>
            <th>{t("models.model")}</th>
            <th>{kind === "llm" ? t("models.source") : t("models.baseUrl")}</th>
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
          {models.map((m) => {
            const file = fileOf(m);
            return (
              <tr key={m.id} data-model-id={m.id} data-state={m.state} data-new={added?.id === m.id ? "true" : undefined}>
                <td>
                  <span data-user>{m.name}</span> {m.managed && <span className="badge">{t("models.managed")}</span>} <StateBadge model={m} />
                  <StateDetail model={m} />
                </td>
                <td><code>{m.model}</code></td>
                <td>
                  {file ? <code className="model-file-path" title={t("models.file")}>{file.path}</code> : <code>{m.base_url}</code>}
                </td>
                <td>{m.is_default ? "✓" : ""}</td>
                <td className="actions">
                  <button type="button" onClick={() => setTesting(m)}>{kind === "llm" ? t("models.testMessage") : t("models.test")}</button>
                  <button type="button" className="model-edit" onClick={() => setEditing(m)}>{t("common.edit")}</button>
                  <button type="button" className="danger model-delete" onClick={() => void remove(m)}>{t("common.delete")}</button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {editing && (
        <ModelEditor
          key={editing === "new" ? "new" : editing.id}
          kind={kind}
          model={editing === "new" ? null : editing}
          onDone={() => {
            setEditing(null);
            changed();
          }}
        />
      )}
      {testing && <ModelTest key={testing.id} kind={kind} model={testing} onClose={() => setTesting(null)} />}
      {kind === "llm" && <ModelFiles version={filesVersion} onAdd={addFile} />}
    </div>
  );
}

/** The GGUF files found in the models folders, each with an Add button, "Added" (the
 *  model that runs it) or why it cannot be added; and the setting naming one more folder. */
function ModelFiles({ version, onAdd }: { version: number; onAdd: (path: string) => Promise<AddFailure | null> }) {
  const { t, i18n } = useTranslation();
  const [files, setFiles] = useState<FoundFile[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [failures, setFailures] = useState<Record<string, AddFailure>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const [folder, setFolder] = useState("");
  const [folderSaved, setFolderSaved] = useState(false);
  const load = useCallback(() => {
    api<{ list: FoundFile[] }>("GET", "/model-files")
      .then((r) => {
        setFiles(r.list);
        setError(null);
      })
      .catch(setError);
  }, []);
  useEffect(load, [load, version]);
  useEffect(() => {
    api<{ settings: Schemas["Setting"][] }>("GET", "/settings")
      .then((r) => {
        const value = r.settings.find((s) => s.key === "models.folder")?.value;
        if (typeof value === "string") setFolder(value);
      })
      .catch(() => undefined);
  }, []);
  const add = async (path: string) => {
    setBusy(path);
    const why = await onAdd(path);
    setBusy(null);
    setFailures((f) => {
      const next = { ...f };
      if (why) next[path] = why;
      else delete next[path];
      return next;
    });
  };
  const saveFolder = async () => {
    setFolderSaved(false);
    try {
      await api("PUT", `/settings/${encodeURIComponent("models.folder")}`, { value: folder.trim() });
      setError(null);
      setFolderSaved(true);
      load();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <div className="model-files" id="model-files">
      <header className="detail-head">
        <h3>{t("models.files")}</h3>
        <button type="button" id="model-files-refresh" onClick={load}>{t("models.refresh")}</button>
      </header>
      <p className="muted">{t("models.filesIntro")}</p>
      <form className="row-fields" id="models-folder-form" onSubmit={(e) => { e.preventDefault(); void saveFolder(); }}>
        <Field label={t("models.folder")}>
          <input id="models-folder" value={folder} onChange={(e) => { setFolder(e.target.value); setFolderSaved(false); }} placeholder="/home/me/models" />
        </Field>
        <button type="submit" id="models-folder-save">{t("common.save")}</button>
        {folderSaved && <span className="ok-text">{t("common.saved")}</span>}
      </form>
      <ErrorBox error={error} />
      <table>
        <thead>
          <tr>
            <th>{t("models.fileName")}</th>
            <th>{t("models.size")}</th>
            <th>{t("models.architecture")}</th>
            <th>{t("models.trainedContext")}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {files === null && (
            <tr>
              <td colSpan={5} className="muted">{t("common.loading")}</td>
            </tr>
          )}
          {files?.length === 0 && (
            <tr>
              <td colSpan={5} className="muted">{t("models.filesEmpty")}</td>
            </tr>
          )}
          {files?.map((f, i) => {
            const row = fileRow(f);
            return (
              <tr key={f.path} id={`model-file-${i}`} className="model-file" data-path={f.path}>
                <td>
                  <code data-user title={f.path}>{f.name}</code>
                </td>
                <td>{f.size_bytes > 0 ? fileSize(f.size_bytes, i18n.language) : ""}</td>
                <td>{f.architecture && <code>{f.architecture}</code>}</td>
                <td>{f.context_length ? f.context_length.toLocaleString(i18n.language) : ""}</td>
                <td className="actions">
                  {row.kind === "add" && (
                    <button type="button" className="primary" id={`model-file-add-${i}`} data-path={f.path} disabled={busy !== null} onClick={() => void add(f.path)}>
                      {busy === f.path ? t("models.adding") : t("models.add")}
                    </button>
                  )}
                  {row.kind === "added" && (
                    <span className="ok-text" id={`model-file-added-${i}`} data-model-id={row.modelId}>
                      {t("models.added")} <code>{row.modelId}</code>
                    </span>
                  )}
                  {row.kind === "error" && (
                    <span className="error-text" id={`model-file-error-${i}`} data-user>{row.error}</span>
                  )}
                  <AddFailureText failure={failures[f.path] ?? null} id={`model-file-failure-${i}`} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function ModelEditor({ kind, model, onDone }: { kind: Kind; model: Model | null; onDone: () => void }) {
  const { t } = useTranslation();
  const file = fileOf(model);
  const [name, setName] = useState(model?.name ?? "");
  const [baseUrl, setBaseUrl] = useState(model?.base_url ?? "");
  const [modelName, setModelName] = useState(model?.model ?? "");
  const [apiKey, setApiKey] = useState("");
  const llm = model && "temperature" in model ? model : null;
  const asr = model && "hotwords" in model ? model : null;
  const [temperature, setTemperature] = useState(String(llm?.temperature ?? 0.7));
  const [maxTokens, setMaxTokens] = useState(String(llm?.max_tokens ?? 1024));
  const [contextSize, setContextSize] = useState(String(file?.context_size ?? ""));
  const [threads, setThreads] = useState(String(file?.threads ?? ""));
  const [language, setLanguage] = useState(asr?.language ?? "");
  const [hotwords, setHotwords] = useState((asr?.hotwords ?? []).join(", "));
  const [isDefault, setIsDefault] = useState(model?.is_default ?? false);
  const [error, setError] = useState<unknown>(null);
  const save = async () => {
    // A model run from a file has no server address or key of its own: its file's
    // server settings are what change.
    const common = file
      ? { name, model: modelName, is_default: isDefault }
      : { name, base_url: baseUrl, model: modelName, is_default: isDefault, ...(apiKey ? { api_key: apiKey } : {}) };
    const body: LlmBody | AsrBody = kind === "llm"
      ? {
        ...common,
        temperature: Number(temperature),
        max_tokens: Number(maxTokens),
        ...(file ? { context_size: Number(contextSize), threads: Number(threads) } : {}),
      }
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
    <form className="editor" id={`model-editor-${kind}`} data-file={file ? "true" : undefined} onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <div className="row-fields">
        <Field label={t("models.name")}><input value={name} onChange={(e) => setName(e.target.value)} required /></Field>
        {file ? (
          <Field label={t("models.file")}><input id="model-editor-file" value={file.path} readOnly /></Field>
        ) : (
          <Field label={t("models.baseUrl")}><input value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} placeholder="http://127.0.0.1:8080/v1" required /></Field>
        )}
        <Field label={t("models.model")}><input value={modelName} onChange={(e) => setModelName(e.target.value)} required /></Field>
        {!file && (
          <Field label={t("models.apiKey")}>
            <input type="password" autoComplete="off" value={apiKey} onChange={(e) => setApiKey(e.target.value)} placeholder={model?.api_key ?? ""} />
          </Field>
        )}
      </div>
      {file && (
        <div className="row-fields">
          <Field label={t("models.contextSize")}>
            <input id="model-editor-context" type="number" min={4096} max={1048576} step={1} value={contextSize} onChange={(e) => setContextSize(e.target.value)} required />
          </Field>
          <Field label={t("models.threads")}>
            <input id="model-editor-threads" type="number" min={1} max={256} step={1} value={threads} onChange={(e) => setThreads(e.target.value)} required />
          </Field>
          <span className="muted" id="model-editor-template">{t("models.chatTemplate")}</span>
        </div>
      )}
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
