import { lazy, Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { LANGUAGES, setLanguage } from "./i18n";
import { PromptHost } from "./prompts";
import { ErrorBoundary } from "./components";
import { HeaderModel } from "./modelState";
import { Chat } from "./pages/Chat";

// Loaded on first visit, so the window is interactive sooner (the schema form and the
// code editor are most of the bundle).
const Tools = lazy(() => import("./pages/Tools").then((m) => ({ default: m.Tools })));
const Models = lazy(() => import("./pages/Models").then((m) => ({ default: m.Models })));
const Autotest = lazy(() => import("./pages/Autotest").then((m) => ({ default: m.Autotest })));
const Audit = lazy(() => import("./pages/Audit").then((m) => ({ default: m.Audit })));
const Mcp = lazy(() => import("./pages/Mcp").then((m) => ({ default: m.Mcp })));
const Schedules = lazy(() => import("./pages/Schedules").then((m) => ({ default: m.Schedules })));

const PAGES = ["chat", "tools", "schedules", "mcp", "models", "autotest", "audit"] as const;
type Page = (typeof PAGES)[number];

export function App() {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState<Page>("chat");
  // The autotest stays mounted once opened, so a run in progress and its results are still
  // there after a visit to another page.
  const [autotestOpened, setAutotestOpened] = useState(false);
  useEffect(() => {
    if (page === "autotest") setAutotestOpened(true);
  }, [page]);
  // Another page (the audit log) asks for a conversation: the chat opens it, this shows it.
  useEffect(() => {
    const show = () => setPage("chat");
    window.addEventListener("deskmate:open-conversation", show);
    return () => window.removeEventListener("deskmate:open-conversation", show);
  }, []);
  return (
    <PromptHost>
      <div className="shell" data-ready="true">
        <header className="topbar">
          <h1>{t("app.title")}</h1>
          <nav aria-label={t("app.nav")}>
            {PAGES.map((p) => (
              <button
                key={p}
                type="button"
                id={`nav-${p}`}
                className={p === page ? "tab active" : "tab"}
                aria-current={p === page ? "page" : undefined}
                onClick={() => setPage(p)}
              >
                {t(`nav.${p}`)}
              </button>
            ))}
          </nav>
          <HeaderModel />
          <label className="language">
            <span>{t("app.language")}</span>
            <select id="language" value={i18n.language} onChange={(e) => setLanguage(e.target.value)}>
              {LANGUAGES.map((l) => (
                <option key={l.code} value={l.code}>
                  {l.label}
                </option>
              ))}
            </select>
          </label>
        </header>
        <main id={`page-${page}`}>
          {/* Chat stays mounted (outside the per-page error boundary, whose key changes with
              the page) so the open conversation and a turn in progress survive a visit to
              another page. */}
          <div hidden={page !== "chat"}>
            <ErrorBoundary>
              <Chat />
            </ErrorBoundary>
          </div>
          <ErrorBoundary key={page}>
          <Suspense fallback={<p className="muted">{t("common.loading")}</p>}>
            {page === "tools" && <Tools />}
            {page === "schedules" && <Schedules />}
            {page === "mcp" && <Mcp />}
            {page === "models" && <Models />}
            {page === "audit" && <Audit />}
          </Suspense>
          </ErrorBoundary>
          {autotestOpened && (
            <div hidden={page !== "autotest"}>
              <ErrorBoundary>
                <Suspense fallback={<p className="muted">{t("common.loading")}</p>}>
                  <Autotest />
                </Suspense>
              </ErrorBoundary>
            </div>
          )}
        </main>
      </div>
    </PromptHost>
  );
}
