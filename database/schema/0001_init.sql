-- Schema 1: rulings (from database/rulings/*.json), fixtures, game records, adjudications.
-- Applied by database/migrate.cc inside one transaction; PRAGMA user_version is set after it.
-- Every table is STRICT; JSON columns are checked with json_valid().

-- One row per ruling ID of the checklist.
CREATE TABLE rulings (
  ruling_no       INTEGER PRIMARY KEY,             -- stable rowid for the FTS index
  id              TEXT NOT NULL UNIQUE,            -- e.g. GIFT-FN9
  expansion       TEXT NOT NULL,                   -- base, phantom, gifts, ...
  edition         TEXT NOT NULL,                   -- C1, C2, C3, any ...
  status          TEXT NOT NULL,                   -- as in the file: current, needs-expansion:tower
  status_kind     TEXT NOT NULL CHECK (status_kind IN
                    ('current', 'variant', 'disputed', 'superseded', 'needs-expansion')),
  needs_expansion TEXT,                            -- the <name> of needs-expansion:<name>
  title           TEXT NOT NULL,
  summary         TEXT NOT NULL,
  question        TEXT,                            -- disputes: what is disputed
  reasoning       TEXT,                            -- disputes: why the adopted reading
  variant_name    TEXT,
  source_page     TEXT,
  source_section  TEXT,
  source_footnote INTEGER,
  source_hint     TEXT,
  answer_cited    TEXT,                            -- official answer date as cited: "4/2022"
  answer_date     TEXT CHECK (answer_date IS NULL OR answer_date GLOB
                    '[0-9][0-9][0-9][0-9]-[0-1][0-9]*'),  -- ISO: "2022-04"
  source_file     TEXT NOT NULL,                   -- database/rulings/gifts.json
  data            TEXT NOT NULL CHECK (json_valid(data)),  -- the whole entry, verbatim
  CHECK ((status_kind = 'needs-expansion') = (needs_expansion IS NOT NULL))
) STRICT;
CREATE INDEX rulings_by_expansion ON rulings (expansion, status_kind);

-- Further official answers beyond the main one (e.g. PH-PD).
CREATE TABLE ruling_answers (
  ruling_id TEXT NOT NULL REFERENCES rulings (id) ON DELETE CASCADE,
  seq       INTEGER NOT NULL,
  cited     TEXT NOT NULL,
  date      TEXT,
  PRIMARY KEY (ruling_id, seq)
) STRICT;

-- Disputes: each reading, and which one the reference adopts (at most one).
CREATE TABLE ruling_readings (
  ruling_id TEXT NOT NULL REFERENCES rulings (id) ON DELETE CASCADE,
  seq       INTEGER NOT NULL,
  name      TEXT NOT NULL,
  adopted   INTEGER NOT NULL CHECK (adopted IN (0, 1)),
  summary   TEXT NOT NULL,
  support   TEXT,
  PRIMARY KEY (ruling_id, seq)
) STRICT;
CREATE UNIQUE INDEX one_adopted_reading ON ruling_readings (ruling_id) WHERE adopted = 1;

CREATE TABLE ruling_links (
  from_id TEXT NOT NULL REFERENCES rulings (id) ON DELETE CASCADE,
  kind    TEXT NOT NULL CHECK (kind IN
            ('supersedes', 'superseded_by', 'variant_of', 'conflicts_with', 'see_also')),
  to_id   TEXT NOT NULL REFERENCES rulings (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  PRIMARY KEY (from_id, kind, to_id)
) STRICT;
CREATE INDEX ruling_links_to ON ruling_links (to_id);

-- Expansions a ruling needs to apply (needs_expansion list of the file).
CREATE TABLE ruling_needs (
  ruling_id TEXT NOT NULL REFERENCES rulings (id) ON DELETE CASCADE,
  expansion TEXT NOT NULL,
  PRIMARY KEY (ruling_id, expansion)
) STRICT;

CREATE TABLE ruling_examples (
  ruling_id TEXT NOT NULL REFERENCES rulings (id) ON DELETE CASCADE,
  seq       INTEGER NOT NULL,
  text      TEXT NOT NULL,
  PRIMARY KEY (ruling_id, seq)
) STRICT;

-- Full-text search over IDs, titles and summaries (external content: the rulings table).
CREATE VIRTUAL TABLE rulings_fts USING fts5 (
  id, title, summary,
  content = 'rulings', content_rowid = 'ruling_no',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER rulings_fts_insert AFTER INSERT ON rulings BEGIN
  INSERT INTO rulings_fts (rowid, id, title, summary)
  VALUES (new.ruling_no, new.id, new.title, new.summary);
END;
CREATE TRIGGER rulings_fts_delete AFTER DELETE ON rulings BEGIN
  INSERT INTO rulings_fts (rulings_fts, rowid, id, title, summary)
  VALUES ('delete', old.ruling_no, old.id, old.title, old.summary);
END;
CREATE TRIGGER rulings_fts_update AFTER UPDATE ON rulings BEGIN
  INSERT INTO rulings_fts (rulings_fts, rowid, id, title, summary)
  VALUES ('delete', old.ruling_no, old.id, old.title, old.summary);
  INSERT INTO rulings_fts (rowid, id, title, summary)
  VALUES (new.ruling_no, new.id, new.title, new.summary);
END;

-- Fixtures (fixtures/**/*.ruling.json) and the ruling IDs each covers.
CREATE TABLE fixtures (
  fixture_no         INTEGER PRIMARY KEY,
  path               TEXT NOT NULL UNIQUE,         -- fixtures/gifts/g01_x.ruling.json
  fixture_id         TEXT,                         -- meta.id of the position file
  title              TEXT,
  mode               TEXT NOT NULL CHECK (mode IN ('adjudicate', 'validate', 'legal', 'score')),
  expected_verdict   TEXT,
  expected_exit_code INTEGER,
  why                TEXT
) STRICT;
-- ruling_id is not a foreign key: a fixture may cite an ID not (yet) in the checklist, which
-- `carc rulings coverage` reports; the view below lists such IDs.
CREATE TABLE fixture_covers (
  fixture_no INTEGER NOT NULL REFERENCES fixtures (fixture_no) ON DELETE CASCADE,
  ruling_id  TEXT NOT NULL,
  PRIMARY KEY (fixture_no, ruling_id)
) STRICT;
CREATE INDEX fixture_covers_by_ruling ON fixture_covers (ruling_id);
CREATE VIEW fixture_covers_unknown AS
  SELECT f.path, c.ruling_id FROM fixture_covers c JOIN fixtures f USING (fixture_no)
  WHERE c.ruling_id NOT IN (SELECT id FROM rulings);

-- Game records (database/GAME_RECORD_FORMAT.md), one row per imported game.
CREATE TABLE games (
  game_id        INTEGER PRIMARY KEY,
  record_sha256  TEXT NOT NULL UNIQUE,             -- of the canonical record JSON
  origin         TEXT NOT NULL CHECK (origin IN ('record', 'jcz', 'generated')),
  source         TEXT,                             -- the file it was imported from
  meta           TEXT CHECK (meta IS NULL OR json_valid(meta)),
  edition        TEXT NOT NULL,
  expansions     TEXT NOT NULL CHECK (json_valid(expansions)),
  options        TEXT CHECK (options IS NULL OR json_valid(options)),
  start          TEXT NOT NULL CHECK (json_valid(start)),
  draw_order     TEXT NOT NULL CHECK (json_valid(draw_order)),
  final_claimed  TEXT CHECK (final_claimed IS NULL OR json_valid(final_claimed)),
  verdict        TEXT NOT NULL CHECK (verdict IN ('consistent', 'illegal', 'score-mismatch')),
  verdict_turn   INTEGER,                          -- 1-based turn of the first problem
  verdict_action INTEGER,                          -- 0-based action in that turn (illegal)
  verdict_text   TEXT NOT NULL,
  finished       INTEGER NOT NULL CHECK (finished IN (0, 1)),  -- final scoring done
  final_model    TEXT CHECK (final_model IS NULL OR json_valid(final_model)),
  model_version  TEXT NOT NULL,
  imported_at    TEXT NOT NULL                     -- ISO 8601 UTC
) STRICT;
CREATE INDEX games_by_verdict ON games (verdict);

CREATE TABLE game_players (
  game_id INTEGER NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
  seat    INTEGER NOT NULL,
  name    TEXT NOT NULL,
  PRIMARY KEY (game_id, seat)
) STRICT;
CREATE INDEX game_players_by_name ON game_players (name);

CREATE TABLE game_turns (
  game_id        INTEGER NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
  turn           INTEGER NOT NULL,                 -- 1-based
  claimed_scores TEXT CHECK (claimed_scores IS NULL OR json_valid(claimed_scores)),
  model_scores   TEXT CHECK (model_scores IS NULL OR json_valid(model_scores)),  -- NULL: not replayed
  PRIMARY KEY (game_id, turn)
) STRICT, WITHOUT ROWID;

CREATE TABLE game_actions (
  game_id INTEGER NOT NULL,
  turn    INTEGER NOT NULL,
  seq     INTEGER NOT NULL,                        -- 0-based within the turn
  type    TEXT NOT NULL,                           -- place_tile, place_figure, pass, draw
  action  TEXT NOT NULL CHECK (json_valid(action)),  -- position-file action form, verbatim
  PRIMARY KEY (game_id, turn, seq),
  FOREIGN KEY (game_id, turn) REFERENCES game_turns (game_id, turn) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;  -- clustered by turn: the rows of a game are read in order

-- Ruling IDs the verdict cites (the illegal action's reasons, the mismatched turn's scoring).
CREATE TABLE game_citations (
  game_id   INTEGER NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
  ruling_id TEXT NOT NULL,
  PRIMARY KEY (game_id, ruling_id)
) STRICT;
CREATE INDEX game_citations_by_ruling ON game_citations (ruling_id);

-- `carc adjudicate FILE --db DB`: one row per ruling given.
CREATE TABLE adjudications (
  adjudication_id INTEGER PRIMARY KEY,
  file            TEXT NOT NULL,
  input_sha256    TEXT NOT NULL,
  question        TEXT,
  verdict         TEXT NOT NULL,
  exit_code       INTEGER NOT NULL,
  model_version   TEXT NOT NULL,
  at              TEXT NOT NULL,                   -- ISO 8601 UTC
  ruling          TEXT NOT NULL CHECK (json_valid(ruling))
) STRICT;
CREATE INDEX adjudications_by_input ON adjudications (input_sha256);

CREATE TABLE adjudication_citations (
  adjudication_id INTEGER NOT NULL REFERENCES adjudications (adjudication_id) ON DELETE CASCADE,
  ruling_id       TEXT NOT NULL,
  PRIMARY KEY (adjudication_id, ruling_id)
) STRICT;
