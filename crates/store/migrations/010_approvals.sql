-- Approvals a person gave for more than one call: "always allow this tool", or "allow
-- in this conversation". Each holds for the tool's definition as it was when given (a
-- fingerprint): a tool whose definition changed asks again.
CREATE TABLE approvals (
    id              TEXT PRIMARY KEY NOT NULL,
    tool            TEXT NOT NULL,
    scope           TEXT NOT NULL CHECK (scope IN ('always', 'conversation')),
    conversation_id TEXT REFERENCES conversations (id) ON DELETE CASCADE,
    fingerprint     TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    CHECK ((scope = 'conversation') = (conversation_id IS NOT NULL))
) STRICT;

-- One approval per tool and scope (and conversation): given again, it is replaced.
CREATE UNIQUE INDEX approvals_one ON approvals (tool, scope, coalesce(conversation_id, ''));
