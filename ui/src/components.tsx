import { Component, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, ToolResult } from "./api";
import { isZh } from "./display";

export function Json({ value }: { value: unknown }) {
  return <pre className="json">{JSON.stringify(value, null, 2)}</pre>;
}

/** An API error in plain words, with the fields a 422 named. */
export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  const e = error instanceof ApiError ? error : new ApiError(0, String(error));
  return (
    <div className="error" role="alert">
      <p>{e.detail}</p>
      {e.errors.length > 0 && (
        <ul>
          {e.errors.map((f, i) => (
            <li key={i}>
              <code>{f.path || "/"}</code> {f.message}
              {f.hint ? ` — ${f.hint}` : ""}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A tool's result: data, or the error with its hint and options; the guard's repairs. */
export function ResultView({ result }: { result: ToolResult }) {
  const { t } = useTranslation();
  return (
    <div className={result.ok ? "result ok" : "result failed"} data-ok={String(result.ok)}>
      {result.ok ? (
        <Json value={result.data} />
      ) : (
        <div className="error-text">
          <strong className="error-type">{t(`errorType.${result.error_type}`, { defaultValue: result.error_type ?? "" })}</strong>
          <GuardText error={result.error} hint={result.hint} />
          {result.options.length > 0 && (
            <p>
              {t("chat.options")}: {result.options.join(", ")}
            </p>
          )}
        </div>
      )}
      {result.repairs.length > 0 && (
        <details open>
          <summary>{t("chat.repairs")}</summary>
          <ul className="repairs">
            {result.repairs.map((r, i) => (
              <li key={i}>
                <code>{r.path || "/"}</code>: {JSON.stringify(r.from)} → {JSON.stringify(r.to)} <em>({t(`repair.${r.rule}`, { defaultValue: r.rule })})</em>
              </li>
            ))}
          </ul>
        </details>
      )}
      <p className="muted">{result.duration_ms} ms · {result.call_id}</p>
    </div>
  );
}

/**
 * The guard's own words (written in English for the model): shown as they are in English,
 * folded under a label in Chinese, whose headline is the error kind's own translation.
 */
export function GuardText({ error, hint }: { error?: string | null; hint?: string | null }) {
  const { t, i18n } = useTranslation();
  if (!error && !hint) return null;
  const text = (
    <>
      {error && <p className="guard-error">{error}</p>}
      {hint && (
        <p>
          {t("chat.hint")}: {hint}
        </p>
      )}
    </>
  );
  return isZh(i18n.language) ? (
    <details className="guard-text">
      <summary>{t("chat.guardWords")}</summary>
      {text}
    </details>
  ) : (
    text
  );
}

export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="field">
      <span>{label}</span>
      {children}
    </label>
  );
}

export function Pager({ page, limit, total, onPage }: { page: number; limit: number; total: number; onPage: (p: number) => void }) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / limit));
  return (
    <div className="pager">
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t("common.previous")}
      </button>
      <span>
        {t("common.page", { page, pages })} · {t("common.total", { count: total })}
      </span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t("common.next")}
      </button>
    </div>
  );
}

/** Shows what broke instead of a blank window, and lets the person go on. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  render() {
    if (this.state.error) {
      return (
        <div className="error" role="alert" id="crash">
          <p>{String(this.state.error.message || this.state.error)}</p>
          <button type="button" onClick={() => this.setState({ error: null })}>
            OK
          </button>
        </div>
      );
    }
    return this.props.children;
  }
}
