-- A model Deskmate runs from a person's own GGUF file: the file's absolute path, and the
-- server settings chosen for it (context size in tokens, threads); NULL for a model
-- served elsewhere or by the setup script's manifest. One model per file.
ALTER TABLE llm_models ADD COLUMN file TEXT;
ALTER TABLE llm_models ADD COLUMN context_size INTEGER;
ALTER TABLE llm_models ADD COLUMN threads INTEGER;
CREATE UNIQUE INDEX llm_models_by_file ON llm_models (file) WHERE file IS NOT NULL;
