-- The program that made a call, as it named itself (an MCP client's name); NULL for
-- Deskmate's own front ends, which `origin` already names.
ALTER TABLE audit_events ADD COLUMN client TEXT;
