// Confirmations and choice questions waiting for the person, and in-app messages: read
// from GET /events (and GET /prompts for those already open), answered with
// POST /prompts/{id}/answer. A prompt answered elsewhere (by voice, over the API) or
// expired disappears at the next check of /prompts.
import { createContext, ReactNode, useCallback, useContext, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, Prompt, stream } from "./api";
import { Json } from "./components";
import { pick } from "./display";

interface InAppMessage {
  title: string;
  body: string;
  urgency: string;
}

/** A window event carrying the microphone's level in dBFS during push to talk. */
export const LEVEL_EVENT = "deskmate-level";

const Offer = createContext<(prompt: Prompt) => void>(() => {});

/** Lets a page show a prompt it learned about (the chat stream's `prompt` event). */
export function useOfferPrompt() {
  return useContext(Offer);
}

export function PromptHost({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation();
  const [prompts, setPrompts] = useState<Prompt[]>([]);
  const [messages, setMessages] = useState<(InAppMessage & { key: number })[]>([]);
  const [now, setNow] = useState(Date.now() / 1000);
  const nextKey = useRef(0);

  const offer = useCallback((prompt: Prompt) => {
    setPrompts((open) => (open.some((p) => p.id === prompt.id) ? open : [...open, prompt]));
  }, []);

  // Pushes: prompts and messages, reconnecting after a second if the stream ends.
  useEffect(() => {
    const abort = new AbortController();
    let stopped = false;
    const listen = async () => {
      while (!stopped) {
        try {
          // The prompts already open are read once the stream is subscribed, so a
          // prompt made in between comes by one or the other, never by neither.
          const pending = () =>
            api<{ list: Prompt[] }>("GET", "/prompts")
              .then((p) => p.list.forEach(offer))
              .catch(() => undefined);
          await stream("GET", "/events", undefined, (e) => {
            if (e.event === "prompt") offer(e.data as Prompt);
            if (e.event === "level") window.dispatchEvent(new CustomEvent(LEVEL_EVENT, { detail: e.data.db }));
            if (e.event === "message") {
              const key = nextKey.current++;
              setMessages((m) => [...m, { ...(e.data as InAppMessage), key }]);
              setTimeout(() => setMessages((m) => m.filter((x) => x.key !== key)), 10000);
            }
          }, abort.signal, pending);
        } catch {
          // not reachable: try again
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
    };
    void listen();
    return () => {
      stopped = true;
      abort.abort();
    };
  }, [offer]);

  // While a prompt is open: drop those no longer pending, count down.
  useEffect(() => {
    if (prompts.length === 0) return;
    const timer = setInterval(async () => {
      setNow(Date.now() / 1000);
      try {
        const pending = await api<{ list: Prompt[] }>("GET", "/prompts");
        const ids = new Set(pending.list.map((p) => p.id));
        setPrompts((open) => open.filter((p) => ids.has(p.id)));
      } catch {
        // keep them until the service answers
      }
    }, 1000);
    return () => clearInterval(timer);
  }, [prompts.length]);

  const answer = async (prompt: Prompt, body: object) => {
    setPrompts((open) => open.filter((p) => p.id !== prompt.id));
    try {
      await api("POST", `/prompts/${encodeURIComponent(prompt.id)}/answer`, body);
    } catch {
      // expired or answered elsewhere: nothing to do
    }
  };

  const current = prompts[0];
  return (
    <Offer.Provider value={offer}>
      {children}
      {current && (
        <div className="backdrop">
          <div
            className="dialog"
            role="dialog"
            aria-modal="true"
            aria-labelledby="prompt-title"
            id="prompt-dialog"
            data-kind={current.kind}
            onKeyDown={(e) => {
              // Escape declines a confirmation (a choice needs an answer or its timeout).
              if (e.key === "Escape" && current.kind === "confirm") void answer(current, { approve: false });
            }}
          >
            <h2 id="prompt-title">
              {current.kind === "confirm" ? t("prompt.confirmTitle") : t("prompt.choiceTitle")}
            </h2>
            <p className="question">
              {current.kind === "confirm" && current.call
                ? t("prompt.runQuestion", { tool: pick(current.call.tool_name, i18n.language) })
                : current.question}
            </p>
            {current.kind === "confirm" && current.call && (
              <dl className="fields">
                <dt>{t("prompt.tool")}</dt>
                <dd>
                  {pick(current.call.tool_name, i18n.language)} <code>{current.call.tool}</code>
                </dd>
                <dt>{t("chat.arguments")}</dt>
                <dd>
                  <Json value={current.call.arguments} />
                </dd>
                {current.call.repairs.length > 0 && (
                  <>
                    <dt>{t("chat.repairs")}</dt>
                    <dd>
                      <Json value={current.call.repairs} />
                    </dd>
                  </>
                )}
                <dt>{t("prompt.why")}</dt>
                <dd>{pick(current.call.reason, i18n.language)}</dd>
              </dl>
            )}
            <p className="muted">
              {t("prompt.expires", { seconds: Math.max(0, Math.round(current.expires_at - now)) })}
            </p>
            <div className="actions">
              {current.kind === "confirm" ? (
                <ConfirmAnswers key={current.id} prompt={current} answer={(body) => answer(current, body)} />
              ) : (
                current.options.map((option, index) => (
                  <button
                    type="button"
                    key={option}
                    className="option"
                    data-index={index}
                    autoFocus={index === 0}
                    onClick={() => answer(current, { index })}
                  >
                    {option}
                  </button>
                ))
              )}
            </div>
          </div>
        </div>
      )}
      <div className="toasts" aria-live="polite">
        {messages.map((m) => (
          <div key={m.key} className={`toast ${m.urgency}`} role="status">
            <strong>{m.title}</strong>
            <p>{m.body}</p>
          </div>
        ))}
      </div>
    </Offer.Provider>
  );
}

/** A confirmation's answers: allow once (the default), in this conversation, always (a
 * tool that cannot be undone needs a second click for that), or deny. */
function ConfirmAnswers({ prompt, answer }: { prompt: Prompt; answer: (body: object) => void }) {
  const { t } = useTranslation();
  const [sure, setSure] = useState(false);
  const grants = prompt.call?.grants ?? ["once"];
  const irreversible = prompt.call?.side_effect === "irreversible";
  return (
    <>
      <button type="button" className="primary" id="prompt-approve" autoFocus onClick={() => answer({ approve: true })}>
        {t("prompt.approve")}
      </button>
      {grants.includes("conversation") && (
        <button type="button" id="prompt-approve-conversation" onClick={() => answer({ approve: true, remember: "conversation" })}>
          {t("prompt.approveConversation")}
        </button>
      )}
      {grants.includes("always") &&
        (irreversible && !sure ? (
          <button type="button" id="prompt-approve-always" onClick={() => setSure(true)}>
            {t("prompt.approveAlways")}
          </button>
        ) : (
          <button
            type="button"
            id={irreversible ? "prompt-approve-always-sure" : "prompt-approve-always"}
            className={irreversible ? "danger" : undefined}
            onClick={() => answer({ approve: true, remember: "always", ...(irreversible ? { irreversible_confirmed: true } : {}) })}
          >
            {irreversible ? t("prompt.approveAlwaysSure") : t("prompt.approveAlways")}
          </button>
        ))}
      <button type="button" id="prompt-deny" onClick={() => answer({ approve: false })}>
        {t("prompt.deny")}
      </button>
    </>
  );
}
