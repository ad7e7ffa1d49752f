-- A conversation is a tree: each message has the message before it in its branch as its
-- parent (NULL for the first one); editing a message or regenerating a reply adds a
-- sibling, and the old continuation stays. The conversation's head is the last message
-- of the branch shown; the path from the head up is what the chat shows and the model
-- reads. A parent always has a smaller seq than its children, so a path has no cycle.
ALTER TABLE conversation_messages ADD COLUMN parent_seq INTEGER
    REFERENCES conversation_messages (seq) ON DELETE CASCADE;
UPDATE conversation_messages SET parent_seq = (
    SELECT max(p.seq) FROM conversation_messages p
    WHERE p.conversation_id = conversation_messages.conversation_id
      AND p.seq < conversation_messages.seq
);
CREATE INDEX conversation_messages_by_parent ON conversation_messages (parent_seq);

ALTER TABLE conversations ADD COLUMN head_seq INTEGER;
UPDATE conversations SET head_seq = (
    SELECT max(m.seq) FROM conversation_messages m WHERE m.conversation_id = conversations.id
);
