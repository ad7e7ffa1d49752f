// A conversation with the model: the reply streams in; each tool call is a card with its
// arguments, the guard's repairs and the result or error; confirmations and choices open
// as dialogs (PromptHost). The sidebar lists the conversations and searches them; a hit
// opens its conversation scrolled to the entry found, highlighted.
import { FormEvent, KeyboardEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, ApiError, Prompt, Schemas, stream, ToolResult } from "../api";
import { Json, ResultView } from "../components";
import { shownName } from "../display";
import type { Resource } from "./Tools";
import { useOfferPrompt } from "../prompts";
import { ContextMeter } from "./ContextMeter";
import { ConversationSearch } from "./ConversationSearch";
import { ExportMenu, ImportDrop } from "./ConversationFiles";
import { EarlierSummary } from "./EarlierSummary";
import { PushToTalk } from "./PushToTalk";

/** What the chat shows; `seq` is the stored message of an item read back from the store. */
export type Item = { seq?: number } & (
  | { kind: "user" | "assistant"; text: string }
  | { kind: "error" | "note" | "reminder" | "summary"; text: string }
  | {
      kind: "tool";
      id: string;
      name: string;
      args: string;
      extracted?: string | null;
      status?: string;
      summary?: string;
      result?: ToolResult;
    }
);

/** A part of the request as the model listed it, with the tool that does it (none: words). */
type PlanPart = { ask: string; tool?: string | null };

type Model = Schemas["LlmModelView"];

type Conversation = Schemas["Conversation"];

type Entry = Schemas["ChatEntry"];

type BranchPoint = Schemas["BranchPoint"];

type Detail = { id: string; entries: Entry[]; branches: BranchPoint[] };

/** A turn that branches: an edit of the person's message `seq`, or a new reply to it. */
type Branching = { editOf: number } | { regenerate: number };

/// Where the open conversation is remembered, so it is still open after a restart.
const OPEN_KEY = "deskmate.conversation";
/// How often the open conversation is read again while no turn runs.
const WATCH_MS = 5000;

/// A saved conversation's entries as the chat's items.
export function itemsOf(entries: Entry[]): Item[] {
  return entries.map((e): Item =>
    e.kind === "tool"
      ? {
          kind: "tool",
          seq: e.seq,
          id: e.id,
          name: e.name,
          args: e.arguments,
          status: e.status ?? undefined,
          summary: e.summary ?? undefined,
          result: e.result ?? undefined,
        }
      : { kind: e.kind, seq: e.seq, text: e.text },
  );
}

/// The tool cards whose summary line the reply after them repeats (a reply built from
/// the results is made of those lines): the card then leads with its name only, so the
/// person does not read each result twice.
export function summariesInReply(items: Item[]): Set<number> {
  const said = new Set<number>();
  const bare = (line: string) => line.trim().replace(/[.。]$/u, "");
  let cards: number[] = [];
  items.forEach((item, i) => {
    if (item.kind === "tool") {
      cards.push(i);
    } else if (item.kind === "assistant") {
      const lines = new Set(item.text.split("\n").map(bare));
      for (const card of cards) {
        const summary = (items[card] as { summary?: string }).summary;
        if (summary && lines.has(bare(summary))) said.add(card);
      }
      cards = [];
    } else if (item.kind === "user") {
      cards = [];
    }
  });
  return said;
}

function parsedArgs(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function Chat() {
  const { t, i18n } = useTranslation();
  const offer = useOfferPrompt();
  const [items, setItems] = useState<Item[]>([]);
  const [input, setInput] = useState("");
  const [busy, setBusy] = useState(false);
  const [conversation, setConversationState] = useState<string | undefined>();
  const [conversations, setConversations] = useState<Conversation[]>([]);
  // The conversation whose title is being edited, or whose deletion awaits a second click.
  const [editing, setEditing] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [models, setModels] = useState<Model[]>([]);
  // The tools as people see them: a card is titled with the tool's name in the window's
  // language, its id one click away.
  const [tools, setTools] = useState<Resource[]>([]);
  const toolName = (id: string) => {
    const tool = tools.find((r) => r.id === id);
    return tool ? shownName(tool, i18n.language) : id;
  };
  const [model, setModel] = useState("");
  const abort = useRef<AbortController | null>(null);
  // How many entries of the open conversation the window has read from the store.
  const loaded = useRef(0);
  const end = useRef<HTMLDivElement>(null);
  const messages = useRef<HTMLDivElement>(null);
  // The entry a search hit opened: scrolled to and highlighted (a new object per opening,
  // so opening the same hit again scrolls again).
  const [found, setFound] = useState<{ seq: number } | null>(null);
  // Where the conversation shown has siblings ("‹ 2/3 ›"), and the message being edited.
  const [branches, setBranches] = useState<BranchPoint[]>([]);
  const [editingSeq, setEditingSeq] = useState<number | null>(null);
  const [draft, setDraft] = useState("");
  // When the turn in progress started, and whether anything of it has arrived yet: until
  // then the chat says the model is thinking, with the seconds since "Send".
  const [started, setStarted] = useState<number | null>(null);
  const [heard, setHeard] = useState(false);
  // The parts of the request the model listed in the turn running, each with its tool.
  const [plan, setPlan] = useState<PlanPart[] | null>(null);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (started === null) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [started]);
  const seconds = started === null ? 0 : Math.max(0, Math.round((now - started) / 1000));
  const said = summariesInReply(items);
  /** The class that highlights the entry a search hit opened. */
  const hit = (item: Item) => (found && item.seq === found.seq ? " hit" : "");
  const when = (at: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: "short", timeStyle: "short" }).format(new Date(at));

  const setConversation = (id: string | undefined) => {
    setConversationState(id);
    if (id) localStorage.setItem(OPEN_KEY, id);
    else localStorage.removeItem(OPEN_KEY);
  };
  const refresh = () =>
    api<{ list: Conversation[] }>("GET", "/conversations")
      .then((r) => setConversations(r.list))
      .catch(() => setConversations([]));
  /** Shows a conversation as the store has it. */
  const show = (detail: Detail) => {
    setItems(itemsOf(detail.entries));
    setBranches(detail.branches ?? []);
    loaded.current = detail.entries.length;
    setConversation(detail.id);
  };
  const load = async (id: string) => show(await api<Detail>("GET", `/conversations/${encodeURIComponent(id)}`));
  const open = async (id: string, seq?: number) => {
    if (busy) return;
    try {
      const detail = await api<Detail>("GET", `/conversations/${encodeURIComponent(id)}`);
      // A hit in a branch not shown: that branch is shown.
      const shown =
        seq !== undefined && !detail.entries.some((e) => e.seq === seq)
          ? await api<Detail>("PUT", `/conversations/${encodeURIComponent(id)}/branch`, { seq })
          : detail;
      show(shown);
      setFound(seq === undefined ? null : { seq });
    } catch (e) {
      // A remembered conversation that was deleted elsewhere: start afresh, quietly.
      if (e instanceof ApiError && e.status === 404) {
        setConversation(undefined);
        setItems([]);
      } else {
        const detail = e instanceof ApiError ? e.detail : String(e);
        setItems([{ kind: "error", text: t("chat.loadFailed", { detail }) }]);
      }
    }
  };
  const rename = async (c: Conversation, title: string) => {
    setEditing(null);
    const clean = title.trim();
    if (!clean || clean === c.title) return;
    try {
      await api("PATCH", `/conversations/${encodeURIComponent(c.id)}`, { title: clean });
    } finally {
      void refresh();
    }
  };
  const remove = async (c: Conversation) => {
    setConfirming(null);
    try {
      await api("DELETE", `/conversations/${encodeURIComponent(c.id)}`);
      if (c.id === conversation) {
        setConversation(undefined);
        setItems([]);
      }
    } finally {
      void refresh();
    }
  };
  const startNew = () => {
    abort.current?.abort();
    setFound(null);
    setItems([]);
    setBranches([]);
    loaded.current = 0;
    setConversation(undefined);
  };

  useEffect(() => {
    api<{ list: Resource[] }>("GET", "/tools/resources?limit=1000")
      .then((r) => setTools(r.list))
      .catch(() => setTools([]));
    api<{ list: Model[] }>("GET", "/models/llm")
      .then((r) => setModels(r.list))
      .catch(() => setModels([]));
    void refresh();
    const remembered = localStorage.getItem(OPEN_KEY);
    if (remembered) void open(remembered);
    const openAsked = (e: Event) => void open((e as CustomEvent<string>).detail);
    window.addEventListener("deskmate:open-conversation", openAsked);
    return () => window.removeEventListener("deskmate:open-conversation", openAsked);
    // Once, when the window opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => end.current?.scrollIntoView?.({ block: "end" }), [items]);
  // After the scroll to the end: a search hit's entry is brought into view instead.
  useEffect(() => {
    if (!found) return;
    const entry = messages.current?.querySelector(`[data-seq="${found.seq}"]`);
    entry?.scrollIntoView?.({ block: "center" });
    // Only when a hit is opened: entries that arrive later scroll to the end as usual.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [found]);
  // What happens in the open conversation while no turn runs (a reminder made in it
  // fires, a scheduled prompt runs in it) shows up without reopening it.
  useEffect(() => {
    if (!conversation || busy) return;
    const timer = window.setInterval(async () => {
      try {
        const detail = await api<{ id: string; entries: Entry[] }>("GET", `/conversations/${encodeURIComponent(conversation)}`);
        if (detail.entries.length > loaded.current) show(detail as Detail);
      } catch {
        // Deleted or unreachable: the next "open" says so.
      }
    }, WATCH_MS);
    return () => window.clearInterval(timer);
  }, [conversation, busy]);

  const send = async (message: string, branching?: Branching) => {
    const text = message.trim();
    const regenerating = branching !== undefined && "regenerate" in branching;
    if ((!text && !regenerating) || busy) return;
    if (!branching) setInput("");
    setBusy(true);
    setFound(null);
    setEditingSeq(null);
    setStarted(Date.now());
    setNow(Date.now());
    setHeard(false);
    setPlan(null);
    // An edit replaces the message and what followed it; a regeneration, the reply.
    const at = branching ? items.findIndex((item) => item.seq === ("editOf" in branching ? branching.editOf : branching.regenerate)) : -1;
    setItems((list) => {
      if (branching && at >= 0) {
        return "editOf" in branching ? [...list.slice(0, at), { kind: "user", text }] : list.slice(0, at + 1);
      }
      return [...list, { kind: "user", text }];
    });
    setBranches([]);
    let finished: string | undefined;
    const controller = new AbortController();
    abort.current = controller;
    const update = (fn: (list: Item[]) => Item[]) => setItems(fn);
    try {
      await stream(
        "POST",
        "/chat",
        // The window's language: Deskmate's own lines follow it when the message does not tell.
        {
          message: text,
          conversation_id: conversation,
          model_id: model || undefined,
          locale: i18n.language,
          ...(branching && "editOf" in branching ? { edit_of: branching.editOf } : {}),
          ...(branching && "regenerate" in branching ? { regenerate: branching.regenerate } : {}),
        },
        ({ event, data }) => {
          setHeard(true);
          switch (event) {
            case "plan":
              // The turn's plan, sent again as each part is decoded: shown while the turn
              // runs, not kept as an entry of the conversation.
              setPlan(data.parts as PlanPart[]);
              break;
            case "token":
              update((list) => {
                const last = list[list.length - 1];
                if (last?.kind === "assistant") {
                  return [...list.slice(0, -1), { ...last, text: last.text + data.text }];
                }
                return [...list, { kind: "assistant", text: data.text }];
              });
              break;
            case "tool_call":
              update((list) => [
                ...list,
                { kind: "tool", id: data.id, name: data.name, args: data.arguments, extracted: data.extracted },
              ]);
              break;
            case "tool_result":
              update((list) =>
                list.map((item) =>
                  item.kind === "tool" && item.id === data.id
                    ? { ...item, status: data.status, summary: data.summary, result: data.result }
                    : item,
                ),
              );
              break;
            case "prompt":
              offer(data as Prompt);
              break;
            case "error":
              update((list) => [...list, { kind: "error", text: data.message }]);
              break;
            case "done":
              finished = data.conversation_id;
              setConversation(data.conversation_id);
              void refresh();
              update((list) => {
                const last = list[list.length - 1];
                // The reply may have come without tokens (a non-streaming model); the one in
                // `done` is the reply as checked against the results, so it is what stays.
                if (!data.reply) return list;
                if (last?.kind !== "assistant") return [...list, { kind: "assistant", text: data.reply }];
                return [...list.slice(0, -1), { ...last, text: data.reply }];
              });
              break;
          }
        },
        controller.signal,
      );
      // Stop: `stream` ends quietly when aborted; the service cancels the turn when the
      // stream closes.
      if (controller.signal.aborted) update((list) => [...list, { kind: "note", text: t("chat.stopped") }]);
    } catch (e) {
      if (controller.signal.aborted) {
        update((list) => [...list, { kind: "note", text: t("chat.stopped") }]);
      } else {
        const detail = e instanceof ApiError ? e.detail : String(e);
        update((list) => [...list, { kind: "error", text: detail }]);
      }
    } finally {
      setPlan(null);
      setBusy(false);
      setStarted(null);
      abort.current = null;
    }
    // Read back as stored: the entries get their seqs, and the branches show.
    if (finished) await load(finished).catch(() => undefined);
  };

  /** Shows the sibling `step` away (-1, +1) of a branch point. */
  const turnBranch = async (point: BranchPoint, step: number) => {
    const sibling = point.siblings[point.index - 1 + step];
    if (sibling === undefined || !conversation || busy) return;
    try {
      show(await api<Detail>("PUT", `/conversations/${encodeURIComponent(conversation)}/branch`, { seq: sibling }));
    } catch (e) {
      const detail = e instanceof ApiError ? e.detail : String(e);
      setItems((list) => [...list, { kind: "error", text: detail }]);
    }
  };
  /** The branch point an item leads (the first item of its message). */
  const pointOf = (item: Item, i: number) =>
    item.seq !== undefined && items[i - 1]?.seq !== item.seq ? branches.find((b) => b.seq === item.seq) : undefined;
  const branchNav = (item: Item, i: number) => {
    const point = pointOf(item, i);
    if (!point) return null;
    return (
      <span className="branch-nav" data-branch={point.seq}>
        <button type="button" className="branch-prev" aria-label={t("chat.branchPrevious")} disabled={busy || point.index <= 1} onClick={() => void turnBranch(point, -1)}>
          ‹
        </button>
        <span className="branch-index">
          {point.index}/{point.count}
        </span>
        <button type="button" className="branch-next" aria-label={t("chat.branchNext")} disabled={busy || point.index >= point.count} onClick={() => void turnBranch(point, 1)}>
          ›
        </button>
      </span>
    );
  };
  // The person's message the last reply answers: "Regenerate" makes a new reply to it.
  const lastAsked = (() => {
    for (let i = items.length - 1; i >= 0; i--) if (items[i].kind === "user") return items[i].seq;
    return undefined;
  })();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void send(input);
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      void send(input);
    }
  };

  return (
    <div className="chat-layout">
    <aside className="conversations" id="conversations" aria-label={t("chat.conversations")}>
      <button type="button" id="chat-new" className="primary" onClick={startNew}>
        {t("chat.newChat")}
      </button>
      <ImportDrop onImported={(id) => { refresh(); void open(id); }}>
      <ConversationSearch onOpen={(id, seq) => void open(id, seq)} open={conversation} disabled={busy}>
        <h2>{t("chat.conversations")}</h2>
        {conversations.length === 0 && <p className="muted">{t("chat.noConversations")}</p>}
        <ul>
          {conversations.map((c) => (
            <li key={c.id} className={c.id === conversation ? "active" : undefined} data-id={c.id}>
              {editing === c.id ? (
                <input
                  className="rename-input"
                  defaultValue={c.title}
                  aria-label={t("chat.renamePrompt")}
                  maxLength={200}
                  autoFocus
                  onFocus={(e) => e.currentTarget.select()}
                  onBlur={(e) => void rename(c, e.currentTarget.value)}
                  onKeyDown={(e) => {
                    if (e.key === "Enter") void rename(c, e.currentTarget.value);
                    if (e.key === "Escape") setEditing(null);
                  }}
                />
              ) : (
                <button type="button" className="open" onClick={() => void open(c.id)} disabled={busy} title={c.title}>
                  {c.title ? <span className="title" data-user>{c.title}</span> : <span className="title">{t("chat.untitled")}</span>}
                  <time dateTime={c.updated_at}>{when(c.updated_at)}</time>
                </button>
              )}
              {confirming === c.id ? (
                <span className="confirm" role="group" aria-label={t("chat.deleteConfirm", { title: c.title || t("chat.untitled") })}>
                  <button type="button" className="confirm-delete danger" onClick={() => void remove(c)}>
                    {t("chat.delete")}
                  </button>
                  <button type="button" className="cancel-delete" onClick={() => setConfirming(null)}>
                    {t("common.cancel")}
                  </button>
                </span>
              ) : (
                <span className="actions">
                  <button type="button" className="rename" onClick={() => setEditing(c.id)} aria-label={t("chat.rename")} title={t("chat.rename")}>
                    ✎
                  </button>
                  <button type="button" className="delete" onClick={() => setConfirming(c.id)} aria-label={t("chat.delete")} title={t("chat.delete")}>
                    ✕
                  </button>
                </span>
              )}
            </li>
          ))}
        </ul>
      </ConversationSearch>
      </ImportDrop>
    </aside>
    <section className="chat">
      <div className="toolbar">
        <label className="inline">
          {t("chat.model")}{" "}
          <select id="chat-model" value={model} onChange={(e) => setModel(e.target.value)}>
            <option value="">{t("chat.defaultModel")}</option>
            {models.map((m) => (
              <option key={m.id} value={m.id} data-user>
                {m.name}
              </option>
            ))}
          </select>
        </label>
        <ExportMenu conversation={conversation} title={conversations.find((c) => c.id === conversation)?.title ?? ""} disabled={busy} />
      </div>
      <div className="messages" id="messages" aria-live="polite" ref={messages}>
        {items.length === 0 && <p className="muted">{t("chat.empty")}</p>}
        {items.map((item, i) =>
          item.kind === "tool" && item.status === "repeated" ? (
            // The model asked again for what was already done: nothing ran, so no second
            // card that would look like a second action.
            <p key={i} className={`muted note repeated${hit(item)}`} data-tool={item.name} data-seq={item.seq}>
              {t("chat.repeatedNote", { tool: toolName(item.name) })}
            </p>
          ) : item.kind === "tool" ? (
            <article key={i} className={`tool-card${hit(item)}`} data-tool={item.name} data-status={item.status ?? "running"} data-seq={item.seq}>
              <header>
                <strong className="tool-name" data-user={tools.some((r) => r.id === item.name && r.display) ? undefined : ""}>
                  {toolName(item.name)}
                </strong>
                {branchNav(item, i)}
                <span className={`badge ${item.status ?? "running"}`}>
                  {item.status ? t(`chat.status.${item.status}`) : t("chat.running")}
                </span>
              </header>
              {item.summary && !said.has(i) && <p className="summary">{item.summary}</p>}
              <details>
                <summary>{t("chat.details")}</summary>
                <p className="muted">
                  <code className="tool-id">{item.name}</code>
                </p>
                {item.extracted && <p className="muted">{t("chat.extracted", { how: t(`extractedHow.${item.extracted}`, { defaultValue: item.extracted }) })}</p>}
                <h4>{t("chat.arguments")}</h4>
                <Json value={parsedArgs(item.args)} />
                {item.result && (
                  <>
                    <h4>{t("chat.result")}</h4>
                    <ResultView result={item.result} />
                  </>
                )}
              </details>
            </article>
          ) : item.kind === "summary" ? (
            <EarlierSummary key={i} text={item.text} seq={item.seq} className={hit(item)} />
          ) : item.kind === "note" ? (
            <p key={i} className="muted note">{item.text}</p>
          ) : item.kind === "reminder" ? (
            <p key={i} className={`note reminder${hit(item)}`} data-role="reminder" data-seq={item.seq}>
              <span aria-hidden="true">⏰</span> {t("chat.reminder")} · {item.text}
            </p>
          ) : (
            <div key={i} className={`bubble ${item.kind}${hit(item)}`} data-role={item.kind} data-seq={item.seq}>
              <span className="who">
                {item.kind === "user" ? t("chat.you") : item.kind === "assistant" ? t("chat.assistant") : t("common.error")}
                {branchNav(item, i)}
              </span>
              {item.kind === "user" && editingSeq !== null && item.seq === editingSeq ? (
                <span className="edit-message">
                  <textarea className="edit-text" value={draft} onChange={(e) => setDraft(e.target.value)} rows={2} autoFocus />
                  <button type="button" className="edit-send primary" disabled={!draft.trim() || busy} onClick={() => void send(draft, { editOf: editingSeq })}>
                    {t("chat.send")}
                  </button>
                  <button type="button" className="edit-cancel" onClick={() => setEditingSeq(null)}>
                    {t("common.cancel")}
                  </button>
                </span>
              ) : (
                <p data-user>{item.text}</p>
              )}
              {item.kind === "user" && item.seq !== undefined && editingSeq === null && !busy && (
                <button type="button" className="edit-message-open link" onClick={() => { setEditingSeq(item.seq ?? null); setDraft(item.text); }}>
                  {t("common.edit")}
                </button>
              )}
              {item.kind === "assistant" && i === items.length - 1 && lastAsked !== undefined && !busy && (
                <button type="button" className="regenerate link" id="chat-regenerate" onClick={() => void send("", { regenerate: lastAsked })}>
                  {t("chat.regenerate")}
                </button>
              )}
            </div>
          ),
        )}
        {busy && plan && plan.length > 0 && (
          <div className="plan muted" id="chat-plan" aria-live="polite">
            <span className="who">{t("chat.plan")}</span>
            <ol>
              {plan.map((part, j) => (
                <li key={j}>
                  <span data-user>{part.ask}</span> → {part.tool ? toolName(part.tool) : t("chat.planWords")}
                </li>
              ))}
            </ol>
          </div>
        )}
        {busy && !heard && (
          <p className="thinking" id="chat-thinking" aria-live="polite">
            {t("chat.thinking")} <span className="elapsed">{t("chat.seconds", { count: seconds })}</span>
          </p>
        )}
        <div ref={end} />
      </div>
      <ContextMeter conversation={conversation} busy={busy} />
      <form className="composer" onSubmit={submit}>
        <textarea
          id="chat-input"
          value={input}
          onChange={(e) => setInput(e.target.value)}
          onKeyDown={onKey}
          placeholder={t("chat.placeholder")}
          aria-label={t("chat.placeholder")}
          rows={2}
        />
        {busy ? (
          <span className="stop">
            <button type="button" id="chat-stop" onClick={() => abort.current?.abort()}>
              {t("chat.stop")}
            </button>
            <span className="elapsed" id="chat-elapsed">{t("chat.seconds", { count: seconds })}</span>
          </span>
        ) : (
          <button type="submit" id="chat-send" className="primary" disabled={!input.trim()}>
            {t("chat.send")}
          </button>
        )}
      </form>
      <PushToTalk onTranscript={(text) => void send(text)} />
    </section>
    </div>
  );
}
