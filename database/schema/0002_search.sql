-- Schema 2: search that answers players' questions.
-- Each ruling gets the questions a player would ask (the `questions` list of its entry) and a
-- source a reader can follow (page, section, footnote). The full-text index gets them too, and
-- a body column (dispute question, reasoning, readings, examples, source section); it is no
-- longer kept by triggers but written by `carc db build` with the ruling (rulings_store.cc).
ALTER TABLE rulings ADD COLUMN questions TEXT NOT NULL DEFAULT '';  -- one question per line
ALTER TABLE rulings ADD COLUMN source_text TEXT;                    -- "page, section, footnote N"

DROP TRIGGER rulings_fts_insert;
DROP TRIGGER rulings_fts_delete;
DROP TRIGGER rulings_fts_update;
DROP TABLE rulings_fts;

-- rowid = rulings.ruling_no. bm25 weights in rulings_query.cc: id, title and questions above
-- summary and body.
CREATE VIRTUAL TABLE rulings_fts USING fts5 (
  id, title, questions, summary, body,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
-- Rows of a database built before this schema, until the next `carc db build`.
INSERT INTO rulings_fts (rowid, id, title, questions, summary, body)
  SELECT ruling_no, id, title, '', summary, coalesce(question, '') || ' ' || coalesce(reasoning, '')
  FROM rulings;
