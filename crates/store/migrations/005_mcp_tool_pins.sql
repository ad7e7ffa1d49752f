-- Trust on first use: each imported tool's definition (name, title, description,
-- input schema, annotations) as it was when its server was added or the person last
-- approved it. A definition that no longer matches keeps the tool disabled until
-- approved again.
CREATE TABLE mcp_tool_pins (
    server     TEXT NOT NULL REFERENCES mcp_servers (name) ON DELETE CASCADE,
    tool       TEXT NOT NULL,
    hash       TEXT NOT NULL CHECK (length(hash) = 64),
    definition TEXT NOT NULL CHECK (json_valid(definition)),
    pinned_at  TEXT NOT NULL,
    PRIMARY KEY (server, tool)
) STRICT;
