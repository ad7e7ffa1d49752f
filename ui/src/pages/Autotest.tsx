// The autotest: Run streams each check as it finishes (a progress bar over the planned
// number), then the summary; device readiness; the history of runs.
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, stream } from "../api";
import { ErrorBox } from "../components";

interface TestCase {
  name: string;
  passed: boolean;
  message: string;
  duration_ms: number;
}

/** A row of the history (GET /tools/autotest/runs). */
interface RunRow {
  id: string;
  kind: string;
  started_at: number;
  duration_ms: number;
  passed: number;
  failed: number;
}

interface Run {
  id: string;
  started_at: number;
  duration_ms: number;
  tests: TestCase[];
  summary: { passed: number; failed: number; total: number };
}

export function Autotest() {
  const { t } = useTranslation();
  const [testLlm, setTestLlm] = useState(true);
  const [testAsr, setTestAsr] = useState(true);
  const [testDevices, setTestDevices] = useState(true);
  const [running, setRunning] = useState(false);
  const [planned, setPlanned] = useState(0);
  const [checks, setChecks] = useState<TestCase[]>([]);
  const [result, setResult] = useState<Run | null>(null);
  const [history, setHistory] = useState<RunRow[]>([]);
  const [error, setError] = useState<unknown>(null);

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
        <p id="autotest-summary" className={result.summary.failed === 0 ? "ok-text" : "error-text"} data-failed={result.summary.failed} data-total={result.summary.total}>
          {t("autotest.summary", result.summary)}
        </p>
      )}
      {shown.length > 0 && <ChecksTable checks={shown} id="autotest-results" />}
      {devices.length > 0 && (
        <section>
          <h3>{t("autotest.devices")}</h3>
          <ul className="devices" id="autotest-device-list">
            {devices.map((d) => (
              <li key={d.name} className={d.passed ? "ok-text" : "error-text"}>
                {d.passed ? "✓" : "✗"} {d.name.slice("Device: ".length)} — {d.message}
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
                <th>{t("autotest.passed")}</th>
                <th>{t("autotest.failed")}</th>
                <th>{t("autotest.duration")}</th>
              </tr>
            </thead>
            <tbody>
              {history.map((r) => (
                <tr key={r.id}>
                  <td>
                    <button type="button" className="link" onClick={() => api<Run>("GET", `/tools/autotest/runs/${encodeURIComponent(r.id)}`).then(setResult).catch(setError)}>
                      {new Date(r.started_at * 1000).toLocaleString()}
                    </button>
                  </td>
                  <td>{r.passed}</td>
                  <td>{r.failed}</td>
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
  const { t } = useTranslation();
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
          <tr key={i} className={c.passed ? "pass" : "fail"} data-check={c.name} data-passed={String(c.passed)}>
            <td>{c.name}</td>
            <td>{c.passed ? t("autotest.passed") : t("autotest.failed")}</td>
            <td>{c.message}</td>
            <td>{c.duration_ms} ms</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
