// Push to talk: hold the button (or the global shortcut, which the desktop shell reports
// as Tauri events) to record; on release the service transcribes it and the transcript
// is sent as a chat message. A level meter shows the microphone's level meanwhile.
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, ApiError } from "../api";
import { LEVEL_EVENT } from "../prompts";

type Phase = "idle" | "listening" | "transcribing";

/** X11 repeats a held key as release+press pairs; a release followed by a press within
 * this many ms is a repeat, not a release. */
const REPEAT_MS = 150;

export function PushToTalk({ onTranscript }: { onTranscript: (text: string) => void }) {
  const { t } = useTranslation();
  const [phase, setPhase] = useState<Phase>("idle");
  const [level, setLevel] = useState(-100);
  const [heard, setHeard] = useState<string | null>(null);
  const [error, setError] = useState("");
  const phaseRef = useRef<Phase>("idle");
  const releaseTimer = useRef<number | undefined>(undefined);
  const setBoth = (p: Phase) => {
    phaseRef.current = p;
    setPhase(p);
  };

  const press = useCallback(async () => {
    if (releaseTimer.current !== undefined) {
      clearTimeout(releaseTimer.current);
      releaseTimer.current = undefined;
      return;
    }
    if (phaseRef.current !== "idle") return;
    setError("");
    setHeard(null);
    setBoth("listening");
    try {
      await api("POST", "/voice/start");
    } catch (e) {
      setBoth("idle");
      setError(e instanceof ApiError ? e.detail : String(e));
    }
  }, []);

  const finish = useCallback(async () => {
    if (phaseRef.current !== "listening") return;
    setBoth("transcribing");
    try {
      const answer = await api<{ text: string; seconds: number }>("POST", "/voice/stop");
      setHeard(answer.text);
      if (answer.text.trim()) onTranscript(answer.text.trim());
    } catch (e) {
      setError(e instanceof ApiError ? e.detail : String(e));
    } finally {
      setBoth("idle");
      setLevel(-100);
    }
  }, [onTranscript]);

  const release = useCallback(
    (debounce: boolean) => {
      if (!debounce) {
        void finish();
        return;
      }
      releaseTimer.current = window.setTimeout(() => {
        releaseTimer.current = undefined;
        void finish();
      }, REPEAT_MS);
    },
    [finish],
  );

  // The level meter.
  useEffect(() => {
    const onLevel = (e: Event) => setLevel((e as CustomEvent<number>).detail);
    window.addEventListener(LEVEL_EVENT, onLevel);
    return () => window.removeEventListener(LEVEL_EVENT, onLevel);
  }, []);

  // The global shortcut, in the desktop shell only.
  useEffect(() => {
    if (!("__TAURI_INTERNALS__" in window)) return;
    let unlisten: (() => void) | undefined;
    let gone = false;
    void import("@tauri-apps/api/event").then(({ listen }) =>
      listen<string>("push-to-talk", (e) => {
        if (e.payload === "pressed") void press();
        else release(true);
      }).then((u) => {
        if (gone) u();
        else unlisten = u;
      }),
    );
    return () => {
      gone = true;
      unlisten?.();
    };
  }, [press, release]);

  // -60 dBFS → empty, 0 dBFS → full.
  const fill = Math.max(0, Math.min(100, ((level + 60) / 60) * 100));
  const shortcut = window.__DESKMATE__?.pushToTalk ?? "";
  return (
    <div className="ptt" id="push-to-talk" data-phase={phase}>
      <button
        type="button"
        id="ptt-button"
        className={phase === "listening" ? "primary" : ""}
        aria-pressed={phase === "listening"}
        onPointerDown={() => void press()}
        onPointerUp={() => release(false)}
        onPointerLeave={() => phaseRef.current === "listening" && release(false)}
        onKeyDown={(e) => {
          if ((e.key === " " || e.key === "Enter") && !e.repeat) {
            e.preventDefault();
            void press();
          }
        }}
        onKeyUp={(e) => {
          if (e.key === " " || e.key === "Enter") {
            e.preventDefault();
            release(false);
          }
        }}
      >
        <svg width="12" height="14" viewBox="0 0 12 14" aria-hidden="true" className="mic">
          <rect x="3.5" y="0.5" width="5" height="8" rx="2.5" fill="currentColor" />
          <path d="M1 6.5a5 5 0 0 0 10 0M6 11.5v2" stroke="currentColor" fill="none" strokeWidth="1.3" />
        </svg>{" "}
        {t("chat.talk")}
      </button>
      <meter id="ptt-level" min={0} max={100} value={phase === "listening" ? fill : 0} aria-label={t("chat.listening")} />
      <span className="muted" role="status">
        {phase === "listening" && t("chat.listening")}
        {phase === "transcribing" && t("chat.transcribing")}
        {phase === "idle" && heard !== null && (heard ? t("chat.heard", { text: heard }) : t("chat.nothingHeard"))}
        {phase === "idle" && heard === null && shortcut && t("chat.talkShortcut", { key: shortcut })}
      </span>
      {error && (
        <span className="error-text" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
