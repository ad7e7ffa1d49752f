-- What a call came to, for the audit page: the error and its hint when it failed, the
-- result (capped; see the service) when it succeeded. NULL for rows written before.
ALTER TABLE audit_events ADD COLUMN error TEXT;
ALTER TABLE audit_events ADD COLUMN hint TEXT;
ALTER TABLE audit_events ADD COLUMN result TEXT CHECK (result IS NULL OR json_valid(result));
