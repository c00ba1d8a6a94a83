-- Key scopes and last use (issue 9). Keys made before scopes existed keep
-- every power they had: they become 'full'.

-- +goose Up
ALTER TABLE keys ADD COLUMN scope TEXT NOT NULL DEFAULT 'full' CHECK (scope IN ('full', 'api'));
-- Unix milliseconds of the last authenticated call, written at most once
-- a minute per key; NULL until first used.
ALTER TABLE keys ADD COLUMN last_used_at INTEGER;

-- +goose Down
ALTER TABLE keys DROP COLUMN last_used_at;
ALTER TABLE keys DROP COLUMN scope;
