-- What the model is sent of a long conversation. A summary stands for the conversation's
-- messages up to and including `until_seq` (a prefix of it: the message and everything
-- before it); it is made by the model when the conversation no longer fits its context,
-- and reused while that message is still part of the conversation (a newer summary folds
-- the older one and the turns after it). Deleted with the message it ends at.
CREATE TABLE conversation_summaries (
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    until_seq       INTEGER NOT NULL REFERENCES conversation_messages (seq) ON DELETE CASCADE,
    text            TEXT NOT NULL CHECK (length(text) > 0),
    tokens          INTEGER NOT NULL CHECK (tokens >= 0),
    model_id        TEXT,
    created_at      TEXT NOT NULL,
    PRIMARY KEY (conversation_id, until_seq)
) STRICT;

-- How full the model's context was at a conversation's last turn (the chat's meter).
CREATE TABLE conversation_context (
    conversation_id     TEXT PRIMARY KEY NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    n_ctx               INTEGER NOT NULL CHECK (n_ctx > 0),
    catalog_tokens      INTEGER NOT NULL CHECK (catalog_tokens >= 0),
    conversation_tokens INTEGER NOT NULL CHECK (conversation_tokens >= 0),
    folded_until_seq    INTEGER,
    at                  TEXT NOT NULL
) STRICT;
