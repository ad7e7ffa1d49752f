// Reminders and scheduled calls: the upcoming ones in the person's local time with their
// rule in words, what came of the last run, on/off, delete, and a form to add one or edit
// one (a reminder, a tool call with the Tools page's argument form, or a request to the
// assistant).
import { useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
import Form from "@rjsf/core";
import { api, Schemas } from "../api";
import { ErrorBox, Json, Pager } from "../components";
import { dateTime, isZh, schemaForPeople, shownName } from "../display";
import { Resource, validator } from "./Tools";

type Schedule = Schemas["ScheduleView"];
type Run = Schemas["ScheduleRun"];
type Listing = Schemas["Page_ScheduleView"];
type Kind = "reminder" | "tool" | "prompt";

const LIMIT = 50;
/** How often the list is read again while the page is open (a run may have fired). */
const REFRESH_MS = 5000;

export function Schedules() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [data, setData] = useState<Listing | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [editing, setEditing] = useState<Schedule | null>(null);
  const load = useCallback(async () => {
    try {
      setData(await api<Listing>("GET", `/schedules?page=${page}&limit=${LIMIT}`));
      setError(null);
    } catch (e) {
      setError(e);
    }
  }, [page]);
  useEffect(() => {
    void load();
    const timer = window.setInterval(() => void load(), REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [load]);

  return (
    <section className="schedules">
      <ScheduleForm
        key={editing?.id ?? "new"}
        editing={editing}
        onSaved={() => {
          setEditing(null);
          void load();
        }}
        onCancel={() => setEditing(null)}
      />
      <ErrorBox error={error} />
      <table id="schedules-table">
        <thead>
          <tr>
            <th>{t("schedules.what")}</th>
            <th>{t("schedules.rule")}</th>
            <th>{t("schedules.next")}</th>
            <th>{t("schedules.last")}</th>
            <th>{t("schedules.enabled")}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {data?.list.length === 0 && (
            <tr>
              <td colSpan={6} className="muted">{t("schedules.empty")}</td>
            </tr>
          )}
          {data?.list.map((s) => (
            <Row key={s.id} schedule={s} onChanged={() => void load()} onEdit={() => setEditing(s)} />
          ))}
        </tbody>
      </table>
      {data && <Pager page={data.page} limit={data.limit} total={data.total} onPage={setPage} />}
    </section>
  );
}

function what(s: Schedule, t: TFunction): string {
  switch (s.action.kind) {
    case "reminder":
      return t("schedules.remind", { message: s.action.message });
    case "tool":
      return t("schedules.call", { tool: s.action.tool });
    case "prompt":
      return t("schedules.ask", { prompt: s.action.prompt });
  }
}

function Row({ schedule: s, onChanged, onEdit }: { schedule: Schedule; onChanged: () => void; onEdit: () => void }) {
  const { t, i18n } = useTranslation();
  const [error, setError] = useState<unknown>(null);
  const [runs, setRuns] = useState<Run[] | null>(null);
  const change = async (work: () => Promise<unknown>) => {
    try {
      await work();
      setError(null);
      onChanged();
    } catch (e) {
      setError(e);
    }
  };
  const toggle = () => change(() => api("PUT", `/schedules/${encodeURIComponent(s.id)}`, { enabled: !s.enabled }));
  const remove = () => {
    if (!window.confirm(t("common.confirmDelete", { name: what(s, t) }))) return;
    void change(() => api("DELETE", `/schedules/${encodeURIComponent(s.id)}`));
  };
  const showRuns = async () => {
    try {
      const page = await api<{ list: Run[] }>("GET", `/schedules/${encodeURIComponent(s.id)}/runs?limit=20`);
      setRuns(page.list);
    } catch (e) {
      setError(e);
    }
  };
  const rule = isZh(i18n.language) ? s.rule_words.zh : s.rule_words.en;
  return (
    <tr data-schedule={s.id} data-status={s.last_status ?? ""}>
      <td className="schedule-what">{what(s, t)}</td>
      <td className="schedule-rule">{rule}</td>
      <td className="schedule-next">{s.next_at ? dateTime(s.next_at, i18n.language) : <span className="muted">{t("schedules.noMore")}</span>}</td>
      <td className="schedule-last">
        {s.last_status ? (
          <details onToggle={(e) => (e.currentTarget.open ? void showRuns() : undefined)}>
            <summary className={s.last_status === "succeeded" ? "ok-text" : s.last_status === "running" ? "" : "error-text"}>
              {t(`schedules.status.${s.last_status}`)}
              {s.last_run_at && ` · ${dateTime(s.last_run_at, i18n.language)}`}
            </summary>
            {s.last_result !== null && s.last_result !== undefined && <Json value={s.last_result} />}
            {runs && (
              <ul className="schedule-runs">
                {runs.map((r) => (
                  <li key={r.occurrence}>
                    {dateTime(r.occurrence, i18n.language)} · {t(`schedules.status.${r.status}`)}
                  </li>
                ))}
              </ul>
            )}
          </details>
        ) : (
          <span className="muted">{t("schedules.notYet")}</span>
        )}
        <ErrorBox error={error} />
      </td>
      <td>
        <input type="checkbox" className="schedule-enabled" checked={s.enabled} aria-label={t("schedules.enabled")} onChange={() => void toggle()} />
      </td>
      <td className="actions">
        <button type="button" className="schedule-edit" onClick={onEdit}>
          {t("common.edit")}
        </button>
        <button type="button" className="schedule-delete danger" onClick={remove}>
          {t("common.delete")}
        </button>
      </td>
    </tr>
  );
}

type FormProps = { editing: Schedule | null; onSaved: () => void; onCancel: () => void };

/** Adds a schedule, or changes the one being edited (its fields filled in). */
function ScheduleForm({ editing, onSaved, onCancel }: FormProps) {
  const { t, i18n } = useTranslation();
  const action = editing?.action;
  const [kind, setKind] = useState<Kind>(action?.kind ?? "reminder");
  const [when, setWhen] = useState(editing?.when ?? "");
  const [message, setMessage] = useState(action?.kind === "reminder" ? action.message : "");
  const [speak, setSpeak] = useState(action?.kind === "reminder" ? action.speak : false);
  const [prompt, setPrompt] = useState(action?.kind === "prompt" ? action.prompt : "");
  const [tools, setTools] = useState<Resource[]>([]);
  const [tool, setTool] = useState(action?.kind === "tool" ? action.tool : "");
  const [args, setArgs] = useState<any>(action?.kind === "tool" ? action.arguments : {});
  const [error, setError] = useState<unknown>(null);
  const [created, setCreated] = useState<Schedule | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    api<{ list: Resource[] }>("GET", "/tools/resources?limit=1000")
      .then((page) => setTools(page.list.filter((r) => r.enabled && !["schedule", "list_schedules", "cancel_schedule"].includes(r.id))))
      .catch(() => setTools([]));
  }, []);
  const chosen = tools.find((r) => r.id === tool);
  const schema = useMemo(
    () => (chosen ? (schemaForPeople(chosen.parameter_schema, i18n.language) as any) : null),
    [chosen, i18n.language],
  );
  const submit = async () => {
    const body: Record<string, unknown> = { when };
    if (kind === "reminder") {
      body.message = message;
      if (speak) body.speak = true;
    } else if (kind === "tool") {
      body.tool = tool;
      body.arguments = args ?? {};
    } else {
      body.prompt = prompt;
    }
    setSaving(true);
    try {
      const made = editing
        ? await api<Schedule>("PUT", `/schedules/${encodeURIComponent(editing.id)}`, body)
        : await api<Schedule>("POST", "/schedules?origin=gui", body);
      setCreated(made);
      setError(null);
      setWhen("");
      setMessage("");
      setPrompt("");
      onSaved();
    } catch (e) {
      setError(e);
      setCreated(null);
    } finally {
      setSaving(false);
    }
  };
  return (
    <section className={editing ? "new-schedule editing" : "new-schedule"} id="new-schedule" data-editing={editing?.id ?? ""}>
      <h3>{editing ? t("schedules.edit") : t("schedules.new")}</h3>
      <div className="toolbar">
        {(["reminder", "tool", "prompt"] as Kind[]).map((k) => (
          <label key={k} className="inline">
            <input type="radio" name="schedule-kind" value={k} checked={kind === k} onChange={() => setKind(k)} /> {t(`schedules.kinds.${k}`)}
          </label>
        ))}
      </div>
      <label className="block">
        {t("schedules.when")}
        <input id="schedule-when" value={when} onChange={(e) => setWhen(e.target.value)} placeholder={t("schedules.whenExample")} />
      </label>
      {kind === "reminder" && (
        <>
          <label className="block">
            {t("schedules.message")}
            <input id="schedule-message" value={message} onChange={(e) => setMessage(e.target.value)} />
          </label>
          <label className="inline">
            <input type="checkbox" checked={speak} onChange={(e) => setSpeak(e.target.checked)} /> {t("schedules.speak")}
          </label>
        </>
      )}
      {kind === "prompt" && (
        <label className="block">
          {t("schedules.prompt")}
          <textarea id="schedule-prompt" value={prompt} onChange={(e) => setPrompt(e.target.value)} />
        </label>
      )}
      {kind === "tool" && (
        <>
          <label className="block">
            {t("schedules.tool")}
            <select id="schedule-tool" value={tool} onChange={(e) => { setTool(e.target.value); setArgs({}); }}>
              <option value="">{t("tools.select")}</option>
              {tools.map((r) => (
                <option key={r.id} value={r.id}>{shownName(r, i18n.language)}</option>
              ))}
            </select>
          </label>
          {schema && (
            <Form schema={schema} validator={validator} formData={args} onChange={(e) => setArgs(e.formData)} showErrorList={false}>
              <span />
            </Form>
          )}
        </>
      )}
      <button type="button" id="schedule-create" className="primary" disabled={saving || !when.trim()} onClick={() => void submit()}>
        {editing ? t("common.save") : t("schedules.create")}
      </button>
      {editing && (
        <button type="button" id="schedule-cancel-edit" onClick={onCancel}>
          {t("common.cancel")}
        </button>
      )}
      <ErrorBox error={error} />
      {created && (
        <p id="schedule-created" className="ok-text">
          {t("schedules.created", {
            rule: isZh(i18n.language) ? created.rule_words.zh : created.rule_words.en,
            next: created.next_at ? dateTime(created.next_at, i18n.language) : t("schedules.noMore"),
          })}
        </p>
      )}
    </section>
  );
}
