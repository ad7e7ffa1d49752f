-- Searching all conversations: their titles and what the chat shows of their messages.
--
-- The text the chat shows of a stored message (OpenAI wire format), one definition used
-- by the triggers and the backfill below: a person's message, an assistant's reply
-- without tool calls (a reply with calls is shown as its cards), a reminder line
-- (`deskmate.kind = 'reminder'`), a tool card's summary (`deskmate.summary`). `entry_seq`
-- is the seq of the entry the chat shows it in: the message itself, or for a tool
-- result the assistant message that holds the call (the latest one before it).
CREATE VIEW conversation_message_text AS
SELECT seq,
       conversation_id,
       kind,
       CASE kind
           WHEN 'tool' THEN (SELECT max(a.seq) FROM conversation_messages a
                             WHERE a.conversation_id = m.conversation_id AND a.seq < m.seq
                               AND json_extract(a.message, '$.role') = 'assistant')
           ELSE seq
       END AS entry_seq,
       body
FROM (
    SELECT seq,
           conversation_id,
           CASE
               WHEN json_extract(message, '$.role') = 'user' THEN 'user'
               WHEN json_extract(message, '$.role') = 'assistant'
                    AND json_extract(message, '$.deskmate.kind') = 'reminder' THEN 'reminder'
               WHEN json_extract(message, '$.role') = 'assistant'
                    AND coalesce(json_array_length(message, '$.tool_calls'), 0) = 0 THEN 'assistant'
               WHEN json_extract(message, '$.role') = 'tool' THEN 'tool'
           END AS kind,
           CASE
               WHEN json_extract(message, '$.role') = 'tool' THEN
                   CASE WHEN json_type(message, '$.deskmate.summary') = 'text'
                        THEN json_extract(message, '$.deskmate.summary') END
               WHEN json_type(message, '$.content') = 'text' THEN json_extract(message, '$.content')
           END AS body
    FROM conversation_messages
) m
WHERE kind IS NOT NULL AND body IS NOT NULL AND trim(body) <> '';

-- One row per searchable text: a conversation's title (no seq) or a message's text. The
-- rows go with their conversation and their message (foreign keys, cascading).
CREATE TABLE conversation_search_rows (
    id              INTEGER PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    source_seq      INTEGER UNIQUE REFERENCES conversation_messages (seq) ON DELETE CASCADE,
    entry_seq       INTEGER,
    kind            TEXT NOT NULL CHECK (kind IN ('title', 'user', 'assistant', 'tool', 'reminder')),
    body            TEXT NOT NULL
) STRICT;
CREATE INDEX conversation_search_rows_by_conversation ON conversation_search_rows (conversation_id);

-- The index over those rows. The trigram tokenizer indexes every three characters, so
-- any substring of three or more characters is found, in Chinese as in English (folded
-- to lower case); shorter queries are matched with LIKE on the rows.
CREATE VIRTUAL TABLE conversation_search USING fts5 (
    body,
    content = 'conversation_search_rows',
    content_rowid = 'id',
    tokenize = 'trigram'
);
CREATE TRIGGER conversation_search_rows_ai AFTER INSERT ON conversation_search_rows BEGIN
    INSERT INTO conversation_search (rowid, body) VALUES (new.id, new.body);
END;
CREATE TRIGGER conversation_search_rows_ad AFTER DELETE ON conversation_search_rows BEGIN
    INSERT INTO conversation_search (conversation_search, rowid, body) VALUES ('delete', old.id, old.body);
END;
CREATE TRIGGER conversation_search_rows_au AFTER UPDATE ON conversation_search_rows BEGIN
    INSERT INTO conversation_search (conversation_search, rowid, body) VALUES ('delete', old.id, old.body);
    INSERT INTO conversation_search (rowid, body) VALUES (new.id, new.body);
END;

-- Messages and titles as they come and change.
CREATE TRIGGER conversation_messages_search_ai AFTER INSERT ON conversation_messages BEGIN
    INSERT INTO conversation_search_rows (conversation_id, source_seq, entry_seq, kind, body)
    SELECT conversation_id, seq, entry_seq, kind, body FROM conversation_message_text WHERE seq = new.seq;
END;
CREATE TRIGGER conversation_messages_search_au AFTER UPDATE OF message ON conversation_messages BEGIN
    DELETE FROM conversation_search_rows WHERE source_seq = old.seq;
    INSERT INTO conversation_search_rows (conversation_id, source_seq, entry_seq, kind, body)
    SELECT conversation_id, seq, entry_seq, kind, body FROM conversation_message_text WHERE seq = new.seq;
END;
CREATE TRIGGER conversations_search_ai AFTER INSERT ON conversations WHEN trim(new.title) <> '' BEGIN
    INSERT INTO conversation_search_rows (conversation_id, kind, body) VALUES (new.id, 'title', new.title);
END;
CREATE TRIGGER conversations_search_au AFTER UPDATE OF title ON conversations BEGIN
    DELETE FROM conversation_search_rows WHERE conversation_id = old.id AND kind = 'title';
    INSERT INTO conversation_search_rows (conversation_id, kind, body)
    SELECT new.id, 'title', new.title WHERE trim(new.title) <> '';
END;

-- What is already stored.
INSERT INTO conversation_search_rows (conversation_id, kind, body)
SELECT id, 'title', title FROM conversations WHERE trim(title) <> '';
INSERT INTO conversation_search_rows (conversation_id, source_seq, entry_seq, kind, body)
SELECT conversation_id, seq, entry_seq, kind, body FROM conversation_message_text ORDER BY seq;
