-- A tool's name and one-sentence description for people in zh and en
-- ({"name": {"zh", "en"}, "description": {"zh", "en"}}); NULL: only its own name and
-- description. Built-in tools get theirs from their spec on every start.
ALTER TABLE tool_resources ADD COLUMN display TEXT CHECK (display IS NULL OR json_valid(display));
