// The conversation sidebar's search: what is typed is searched in all conversations
// (titles, messages, tool cards' summaries) 300 ms after the last key; each hit shows its
// conversation's title and the text around the words, the words marked. A hit opens its
// conversation at the entry it names.
import { ReactNode, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, ApiError, Schemas } from "../api";
import { markParts } from "../search";

type Hit = Schemas["ConversationHit"];

/** Hits of one page of a search (`GET /conversations?q=`). */
interface HitPage {
  total: number;
  page: number;
  list: Hit[];
}

/** How long typing pauses before the search runs. */
const DEBOUNCE_MS = 300;
/** Hits asked for at a time. */
const PAGE = 50;
/** The longest search the service takes. */
const MAX_QUERY = 200;

/** `text` with the query's words in <mark>. */
function Marked({ text, query }: { text: string; query: string }) {
  return (
    <>
      {markParts(text, query).map((part, i) => (part.mark ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}
    </>
  );
}

/**
 * The search box and, while it holds words, the hits in place of the conversation list
 * (`children`). `onOpen` opens a hit's conversation at its entry (`seq`; none for a title);
 * the hits of the open conversation (`open`) are marked active.
 */
export function ConversationSearch({
  onOpen,
  open,
  disabled,
  children,
}: {
  onOpen: (id: string, seq?: number) => void;
  open?: string;
  disabled: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const [query, setQuery] = useState("");
  const [found, setFound] = useState<HitPage | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  // The latest search asked for: an answer to an older one is dropped.
  const asked = useRef(0);
  const words = query.trim();

  const search = async (q: string, page: number) => {
    const ticket = ++asked.current;
    try {
      const answer = await api<HitPage>("GET", `/conversations?q=${encodeURIComponent(q)}&page=${page}&limit=${PAGE}`);
      if (ticket !== asked.current) return;
      setFailed(null);
      setFound((before) => (page > 1 && before ? { ...answer, list: [...before.list, ...answer.list] } : answer));
    } catch (e) {
      if (ticket !== asked.current) return;
      setFailed(e instanceof ApiError ? e.detail : String(e));
    }
  };

  useEffect(() => {
    if (!words) {
      asked.current++;
      setFound(null);
      setFailed(null);
      return;
    }
    const timer = window.setTimeout(() => void search(words, 1), DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
    // `search` is rebuilt on every render; the words decide.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [words]);

  return (
    <>
      <div className="conversation-search" role="search">
        <input
          id="conversation-search"
          type="search"
          value={query}
          maxLength={MAX_QUERY}
          placeholder={t("chat.search")}
          aria-label={t("chat.search")}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Escape") setQuery("");
          }}
        />
      </div>
      {!words ? (
        children
      ) : (
        <>
          <h2>{found ? t("chat.hits", { count: found.total }) : t("common.loading")}</h2>
          {failed && <p className="error-text">{t("chat.searchFailed", { detail: failed })}</p>}
          {found && found.total === 0 && <p className="muted">{t("chat.noHits")}</p>}
          <ul id="search-hits">
            {found?.list.map((hit, i) => (
              <li
                key={`${hit.conversation_id}-${hit.seq ?? "title"}-${i}`}
                className={hit.conversation_id === open ? "active" : undefined}
                data-id={hit.conversation_id}
                data-seq={hit.seq ?? undefined}
                data-kind={hit.kind}
              >
                <button type="button" className="open" disabled={disabled} onClick={() => onOpen(hit.conversation_id, hit.seq ?? undefined)}>
                  <span className="title" data-user>
                    {hit.kind === "title" ? <Marked text={hit.title} query={words} /> : hit.title || t("chat.untitled")}
                  </span>
                  {hit.kind !== "title" && (
                    <span className="snippet">
                      <span className="kind">{t(`chat.hitKind.${hit.kind}`)}</span>{" "}
                      <span data-user>
                        <Marked text={hit.snippet} query={words} />
                      </span>
                    </span>
                  )}
                </button>
              </li>
            ))}
          </ul>
          {found && found.list.length < found.total && (
            <button type="button" id="search-more" className="link" onClick={() => void search(words, found.page + 1)}>
              {t("chat.moreHits")}
            </button>
          )}
        </>
      )}
    </>
  );
}
