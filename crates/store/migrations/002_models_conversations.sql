-- Models started and registered by Deskmate itself (the local llama-server and
-- faster-whisper-server sidecars): their URL is known only while they run.
ALTER TABLE llm_models ADD COLUMN managed TEXT CHECK (managed IS NULL OR managed IN ('llama-server'));
ALTER TABLE asr_models ADD COLUMN managed TEXT CHECK (managed IS NULL OR managed IN ('faster-whisper-server'));

-- Chat conversations and their messages (OpenAI wire format, one JSON object per row).
CREATE TABLE conversations (
    id         TEXT PRIMARY KEY NOT NULL,
    title      TEXT NOT NULL DEFAULT '',
    model_id   TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
) STRICT;

CREATE TABLE conversation_messages (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    message         TEXT NOT NULL CHECK (json_valid(message)),
    at              TEXT NOT NULL
) STRICT;
CREATE INDEX conversation_messages_by_conversation ON conversation_messages (conversation_id, seq);
