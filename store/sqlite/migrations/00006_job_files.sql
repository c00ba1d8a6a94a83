-- Files a job produced (an editor run's screenshots), stored with the job
-- by FinishJob and erased with it.

-- +goose Up
CREATE TABLE job_files (
    job_id       TEXT    NOT NULL REFERENCES jobs (id),
    name         TEXT    NOT NULL,
    content_type TEXT    NOT NULL,
    data         BLOB    NOT NULL,
    PRIMARY KEY (job_id, name)
) WITHOUT ROWID;

-- +goose Down
DROP TABLE job_files;
