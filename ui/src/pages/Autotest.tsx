// The autotest: Run streams each check as it finishes (a progress bar over the planned
// number), then the summary, what changed since the previous run and a JUnit export;
// device readiness; the history of runs with what each checked.
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, apiText, Schemas, stream } from "../api";
import { ErrorBox } from "../components";
import { checkText as said, dateTime } from "../display";

type Status = Schemas["Status"];

type TestCase = Schemas["TestCase"];

type Scope = Schemas["Scope"];

/** A row of the history (GET /tools/autotest/runs). */
type RunRow = Schemas["RunRow"];

type Run = Schemas["AutotestResult"];

/** GET /tools/autotest/runs/{id}/compare. */
type Comparison = Schemas["Comparison"];

/** A check's status (runs stored before statuses existed have only `passed`). */
function statusOf(c: TestCase): Status {
  return c.status ?? (c.passed ? "passed" : "failed");
}

const STATUS_CLASS: Record<Status, string> = { passed: "pass", failed: "fail", skipped: "skip" };

export function Autotest() {
  const { t, i18n } = useTranslation();
  const [testLlm, setTestLlm] = useState(true);
  const [testAsr, setTestAsr] = useState(true);
  const [testDevices, setTestDevices] = useState(true);
  const [running, setRunning] = useState(false);
  const [planned, setPlanned] = useState(0);
  const [checks, setChecks] = useState<TestCase[]>([]);
  const [result, setResult] = useState<Run | null>(null);
  const [history, setHistory] = useState<RunRow[]>([]);
  const [comparison, setComparison] = useState<Comparison | null>(null);
  const [exported, setExported] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  // Whenever a run is shown (just finished, or opened from the history): what changed.
  useEffect(() => {
    setComparison(null);
    setExported(null);
    if (!result) return;
    api<Comparison>("GET", `/tools/autotest/runs/${encodeURIComponent(result.id)}/compare`)
      .then(setComparison)
      .catch(setError);
  }, [result]);

  const exportJunit = async (id: string) => {
    try {
      const xml = await apiText("GET", `/tools/autotest/runs/${encodeURIComponent(id)}?format=junit`);
      const file = `deskmate-autotest-${id}.xml`;
      const url = URL.createObjectURL(new Blob([xml], { type: "application/xml" }));
      const link = document.createElement("a");
      link.href = url;
      link.download = file;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setExported(file);
    } catch (e) {
      setError(e);
    }
  };

  const loadHistory = useCallback(() => {
    api<{ list: RunRow[] }>("GET", "/tools/autotest/runs")
      .then((r) => setHistory(r.list))
      .catch(setError);
  }, []);
  useEffect(loadHistory, [loadHistory]);

  const run = async () => {
    setRunning(true);
    setChecks([]);
    setResult(null);
    setPlanned(0);
    setError(null);
    const q = new URLSearchParams({ test_llm: String(testLlm), test_asr: String(testAsr), test_devices: String(testDevices) });
    try {
      await stream("POST", `/tools/autotest?${q}`, undefined, ({ event, data }) => {
        if (event === "plan") setPlanned(data.total);
        if (event === "check") setChecks((c) => [...c, data]);
        if (event === "done") setResult(data);
        if (event === "error") setError(new Error(data.detail));
      });
    } catch (e) {
      setError(e);
    } finally {
      setRunning(false);
      loadHistory();
    }
  };

  const scopeText = (scope: Scope) =>
    (["llm", "asr", "tools", "devices"] as const)
      .filter((k) => scope[k])
      .map((k) => t(`autotest.scope${k[0].toUpperCase()}${k.slice(1)}`))
      .join(", ");
  const shown = result?.tests ?? checks;
  const devices = shown.filter((c) => c.name.startsWith("Device: "));
  const total = Math.max(planned, checks.length);
  return (
    <section className="autotest">
      <div className="toolbar">
        <button type="button" id="autotest-run" className="primary" disabled={running} onClick={() => void run()}>
          {t("autotest.run")}
        </button>
        <label className="check"><input type="checkbox" checked={testLlm} onChange={(e) => setTestLlm(e.target.checked)} id="autotest-llm" /> {t("autotest.testLlm")}</label>
        <label className="check"><input type="checkbox" checked={testAsr} onChange={(e) => setTestAsr(e.target.checked)} id="autotest-asr" /> {t("autotest.testAsr")}</label>
        <label className="check"><input type="checkbox" checked={testDevices} onChange={(e) => setTestDevices(e.target.checked)} id="autotest-devices" /> {t("autotest.testDevices")}</label>
      </div>
      {(running || checks.length > 0) && (
        <div className="progress">
          <progress id="autotest-progress" max={total || 1} value={checks.length} aria-label={t("autotest.running", { done: checks.length, total })} />
          <span>{running ? t("autotest.running", { done: checks.length, total }) : ""}</span>
        </div>
      )}
      <ErrorBox error={error} />
      {result && (
        <div className="toolbar">
          <p id="autotest-summary" className={result.summary.failed === 0 ? "ok-text" : "error-text"} data-failed={result.summary.failed} data-skipped={result.summary.skipped ?? 0} data-total={result.summary.total}>
            {t("autotest.summary", { skipped: 0, ...result.summary })}
            {result.scope && <> · {t("autotest.scope")}: {scopeText(result.scope)}</>}
          </p>
          <button type="button" id="autotest-junit" onClick={() => void exportJunit(result.id)}>
            {t("autotest.junit")}
          </button>
          {exported && <span className="muted" id="autotest-exported">{t("autotest.exported", { file: exported })}</span>}
        </div>
      )}
      {comparison && <ComparisonView comparison={comparison} />}
      {shown.length > 0 && <ChecksTable checks={shown} id="autotest-results" />}
      {devices.length > 0 && (
        <section>
          <h3>{t("autotest.devices")}</h3>
          <ul className="devices" id="autotest-device-list">
            {devices.map((d) => (
              <li key={d.name} className={statusOf(d) === "failed" ? "error-text" : "ok-text"}>
                {d.passed ? "✓" : "✗"} {said(d, i18n.language).name} — {said(d, i18n.language).message}
              </li>
            ))}
          </ul>
        </section>
      )}
      <section>
        <h3>{t("autotest.history")}</h3>
        {history.length === 0 ? (
          <p className="muted">{t("autotest.noRuns")}</p>
        ) : (
          <table id="autotest-history">
            <thead>
              <tr>
                <th>{t("autotest.started")}</th>
                <th>{t("autotest.scope")}</th>
                <th>{t("autotest.passed")}</th>
                <th>{t("autotest.failed")}</th>
                <th>{t("autotest.skipped")}</th>
                <th>{t("autotest.duration")}</th>
              </tr>
            </thead>
            <tbody>
              {history.map((r) => (
                <tr key={r.id} data-run={r.id}>
                  <td>
                    <button type="button" className="link" onClick={() => api<Run>("GET", `/tools/autotest/runs/${encodeURIComponent(r.id)}`).then(setResult).catch(setError)}>
                      {dateTime(r.started_at * 1000, i18n.language)}
                    </button>
                  </td>
                  <td data-scope>{r.scope ? scopeText(r.scope) : r.kind.toUpperCase()}</td>
                  <td>{r.passed}</td>
                  <td>{r.failed}</td>
                  <td>{r.skipped ?? 0}</td>
                  <td>{r.duration_ms} ms</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </section>
  );
}

function ChecksTable({ checks, id }: { checks: TestCase[]; id: string }) {
  const { t, i18n } = useTranslation();
  return (
    <table id={id}>
      <thead>
        <tr>
          <th>{t("autotest.check")}</th>
          <th />
          <th>{t("autotest.message")}</th>
          <th>{t("autotest.duration")}</th>
        </tr>
      </thead>
      <tbody>
        {checks.map((c, i) => (
          <tr key={i} className={STATUS_CLASS[statusOf(c)]} data-check={c.name} data-passed={String(c.passed)} data-status={statusOf(c)}>
            <td>{said(c, i18n.language).name}</td>
            <td>{t(`autotest.${statusOf(c)}`)}</td>
            <td>{said(c, i18n.language).message}</td>
            <td>{c.duration_ms} ms</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Which checks changed status since the previous run with the same checks. */
function ComparisonView({ comparison }: { comparison: Comparison }) {
  const { t, i18n } = useTranslation();
  const label = (s?: Status | null) => (s ? t(`autotest.${s}`) : t("autotest.absent"));
  return (
    <section id="autotest-compare" data-previous={comparison.previous_id ?? ""} data-changes={comparison.changes.length}>
      <h3>{t("autotest.compare")}</h3>
      {comparison.previous_id === null ? (
        <p className="muted">{t("autotest.noPrevious")}</p>
      ) : comparison.changes.length === 0 ? (
        <p className="ok-text">{t("autotest.noChanges", { unchanged: comparison.unchanged })}</p>
      ) : (
        <>
          <p>{t("autotest.changed", { count: comparison.changes.length, unchanged: comparison.unchanged })}</p>
          <table>
            <thead>
              <tr>
                <th>{t("autotest.check")}</th>
                <th>{t("autotest.before")}</th>
                <th>{t("autotest.after")}</th>
                <th>{t("autotest.message")}</th>
              </tr>
            </thead>
            <tbody>
              {comparison.changes.map((c) => (
                <tr key={c.name} data-change={c.name} className={c.after ? STATUS_CLASS[c.after] : ""}>
                  <td>{said(c, i18n.language).name}</td>
                  <td>{label(c.before)}</td>
                  <td>{label(c.after)}</td>
                  <td>{said(c, i18n.language).message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
