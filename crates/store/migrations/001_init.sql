-- Deskmate's first schema. Timestamps are RFC 3339 UTC text; JSON columns hold JSON text.

CREATE TABLE settings (
    key        TEXT PRIMARY KEY NOT NULL,
    value      TEXT NOT NULL CHECK (json_valid(value)),
    updated_at TEXT NOT NULL
) STRICT;

-- Seed 004's tool resources, plus side_effect, policy and updated_at.
CREATE TABLE tool_resources (
    id                 TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 64 AND id NOT GLOB '*[^a-z0-9_]*'),
    user_id            INTEGER NOT NULL DEFAULT 1,
    name               TEXT NOT NULL CHECK (length(name) > 0),
    description        TEXT NOT NULL DEFAULT '',
    category           TEXT NOT NULL CHECK (category IN ('query', 'system')),
    icon               TEXT,
    http_method        TEXT NOT NULL DEFAULT 'GET' CHECK (http_method IN ('GET', 'POST', 'PUT', 'PATCH', 'DELETE')),
    http_url           TEXT,
    http_headers       TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(http_headers)),
    http_timeout_ms    INTEGER NOT NULL DEFAULT 10000 CHECK (http_timeout_ms BETWEEN 100 AND 120000),
    parameter_schema   TEXT NOT NULL CHECK (json_valid(parameter_schema)),
    parameter_defaults TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(parameter_defaults)),
    wait_for_response  INTEGER NOT NULL DEFAULT 0 CHECK (wait_for_response IN (0, 1)),
    enabled            INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    is_system          INTEGER NOT NULL DEFAULT 0 CHECK (is_system IN (0, 1)),
    side_effect        TEXT NOT NULL DEFAULT 'read' CHECK (side_effect IN ('read', 'write', 'irreversible')),
    policy             TEXT CHECK (policy IN ('always', 'ask', 'never')),
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL
) STRICT;

CREATE TABLE llm_models (
    id          TEXT PRIMARY KEY NOT NULL,
    name        TEXT NOT NULL CHECK (length(name) > 0),
    base_url    TEXT NOT NULL,
    model       TEXT NOT NULL,
    api_key_ref TEXT,              -- the name of a secret, never the key itself
    temperature REAL NOT NULL DEFAULT 0.7,
    top_p       REAL NOT NULL DEFAULT 1.0,
    max_tokens  INTEGER NOT NULL DEFAULT 1024,
    streaming   INTEGER NOT NULL DEFAULT 1 CHECK (streaming IN (0, 1)),
    is_default  INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
) STRICT;

CREATE TABLE asr_models (
    id          TEXT PRIMARY KEY NOT NULL,
    name        TEXT NOT NULL CHECK (length(name) > 0),
    base_url    TEXT NOT NULL,
    model       TEXT NOT NULL,
    language    TEXT,
    hotwords    TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(hotwords)),
    api_key_ref TEXT,
    is_default  INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
) STRICT;

-- One row per tool call (guard step 10). Arguments are stored with secrets masked.
CREATE TABLE audit_events (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    call_id         TEXT NOT NULL UNIQUE,
    at              TEXT NOT NULL,
    tool            TEXT NOT NULL,
    arguments       TEXT NOT NULL CHECK (json_valid(arguments)),
    repairs         TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(repairs)),
    ok              INTEGER NOT NULL CHECK (ok IN (0, 1)),
    error_type      TEXT,
    duration_ms     INTEGER NOT NULL,
    idem_key        TEXT,
    conversation_id TEXT,
    origin          TEXT NOT NULL
) STRICT;
CREATE INDEX audit_events_tool_at ON audit_events (tool, at);
CREATE INDEX audit_events_at ON audit_events (at);

-- Guard step 7: one execution per key. `result` is set when the execution finished.
CREATE TABLE idempotency (
    key         TEXT PRIMARY KEY NOT NULL,
    fingerprint TEXT NOT NULL,
    result      TEXT CHECK (result IS NULL OR json_valid(result)),
    created_at  TEXT NOT NULL,
    finished_at TEXT
) STRICT;

CREATE TABLE autotest_runs (
    id          TEXT PRIMARY KEY NOT NULL,
    kind        TEXT NOT NULL,
    started_at  REAL NOT NULL,
    duration_ms INTEGER NOT NULL,
    passed      INTEGER NOT NULL,
    failed      INTEGER NOT NULL,
    result      TEXT NOT NULL CHECK (json_valid(result))
) STRICT;
CREATE INDEX autotest_runs_started ON autotest_runs (started_at);

-- The local knowledge base. `indexed` is the text as the full-text index sees it (CJK
-- characters spaced apart so that any run of them can be found as a phrase).
CREATE TABLE kb_documents (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    kb_id      TEXT NOT NULL CHECK (length(kb_id) BETWEEN 1 AND 64),
    title      TEXT NOT NULL,
    body       TEXT NOT NULL,
    indexed    TEXT NOT NULL,
    source     TEXT,
    created_at TEXT NOT NULL,
    UNIQUE (kb_id, source)
) STRICT;
CREATE VIRTUAL TABLE kb_fts USING fts5 (title, indexed, content = 'kb_documents', content_rowid = 'id');
CREATE TRIGGER kb_documents_ai AFTER INSERT ON kb_documents BEGIN
    INSERT INTO kb_fts (rowid, title, indexed) VALUES (new.id, new.title, new.indexed);
END;
CREATE TRIGGER kb_documents_ad AFTER DELETE ON kb_documents BEGIN
    INSERT INTO kb_fts (kb_fts, rowid, title, indexed) VALUES ('delete', old.id, old.title, old.indexed);
END;
CREATE TRIGGER kb_documents_au AFTER UPDATE ON kb_documents BEGIN
    INSERT INTO kb_fts (kb_fts, rowid, title, indexed) VALUES ('delete', old.id, old.title, old.indexed);
    INSERT INTO kb_fts (rowid, title, indexed) VALUES (new.id, new.title, new.indexed);
END;
