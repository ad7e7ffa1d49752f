-- MCP servers whose tools Deskmate imports: a command it starts (stdio) or a URL
-- (Streamable HTTP). `env` and `headers` hold only names: their values are secrets
-- (`mcp.<server>.env.<NAME>`, `mcp.<server>.header.<Name>`).
CREATE TABLE mcp_servers (
    name       TEXT PRIMARY KEY NOT NULL CHECK (length(name) BETWEEN 1 AND 24),
    command    TEXT,
    args       TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(args) AND json_type(args) = 'array'),
    env        TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(env) AND json_type(env) = 'array'),
    url        TEXT,
    headers    TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(headers) AND json_type(headers) = 'array'),
    enabled    INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    -- Exactly one way to reach it.
    CHECK ((command IS NULL) <> (url IS NULL))
) STRICT;
