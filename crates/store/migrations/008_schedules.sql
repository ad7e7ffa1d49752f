-- Schedules: a reminder, a tool call or a chat prompt with a time rule. Times are UTC
-- in one fixed form ('2026-12-03T09:00:00.000Z') so that text order is time order.
CREATE TABLE schedules (
    id              TEXT PRIMARY KEY NOT NULL,
    -- What runs: {"kind": "reminder" | "tool" | "prompt", ...} (the service's types).
    action          TEXT NOT NULL CHECK (json_valid(action)),
    -- The time rule as parsed (the service's types), and the words it was given in.
    rule            TEXT NOT NULL CHECK (json_valid(rule)),
    rule_text       TEXT NOT NULL,
    time_zone       TEXT NOT NULL,
    -- The next occurrence; NULL when the rule fires no more.
    next_at         TEXT,
    enabled         INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    created_by      TEXT NOT NULL CHECK (created_by IN ('chat', 'api', 'gui', 'mcp', 'cli')),
    conversation_id TEXT,
    -- For a tool whose policy asks: the tool definition the person agreed to, as a
    -- fingerprint; a changed definition asks again.
    consent         TEXT,
    run_count       INTEGER NOT NULL DEFAULT 0,
    last_run_at     TEXT,
    last_status     TEXT CHECK (last_status IS NULL OR last_status IN ('running', 'succeeded', 'failed', 'missed')),
    last_result     TEXT,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL
) STRICT;

CREATE INDEX schedules_due ON schedules (next_at) WHERE enabled = 1 AND next_at IS NOT NULL;

-- One row per occurrence that came due. Its key (schedule, occurrence) is the claim: a
-- process fires an occurrence only after inserting its row, so two processes on one
-- database never fire it twice.
CREATE TABLE schedule_runs (
    schedule_id TEXT NOT NULL REFERENCES schedules (id) ON DELETE CASCADE,
    occurrence  TEXT NOT NULL,
    claimed_by  TEXT NOT NULL,
    claimed_at  TEXT NOT NULL,
    finished_at TEXT,
    status      TEXT NOT NULL CHECK (status IN ('running', 'succeeded', 'failed', 'missed')),
    result      TEXT,
    PRIMARY KEY (schedule_id, occurrence)
) STRICT;

CREATE INDEX schedule_runs_running ON schedule_runs (claimed_at) WHERE status = 'running';
