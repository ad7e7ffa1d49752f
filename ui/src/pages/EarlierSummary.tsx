// The summary the model made of a long conversation's oldest turns, which it reads instead
// of them: one collapsed line ("Earlier: …") after the last entry it covers, opened to
// read it whole. The text is the model's, in the conversation's language.
import { useTranslation } from "react-i18next";

/** How much of the summary the collapsed line shows, in characters. */
const PREVIEW = 90;

/** The first line of `text`, cut at `PREVIEW` characters with an ellipsis. */
export function preview(text: string): string {
  const first = text.trim().split("\n")[0] ?? "";
  const chars = [...first];
  return chars.length > PREVIEW || text.trim().includes("\n") ? `${chars.slice(0, PREVIEW).join("")}…` : first;
}

export function EarlierSummary({ text, seq, className = "" }: { text: string; seq?: number; className?: string }) {
  const { t } = useTranslation();
  return (
    <details className={`earlier-summary${className}`} data-role="summary" data-seq={seq}>
      <summary title={t("chat.earlierTitle")}>
        <span className="who">{t("chat.earlier")}</span> <span data-user>{preview(text)}</span>
      </summary>
      <p data-user>{text}</p>
    </details>
  );
}
