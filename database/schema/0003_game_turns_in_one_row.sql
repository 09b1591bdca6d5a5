-- Schema 3: a game's turns in its own row (import speed).
-- Schema 1 stored a game as ~220 rows (one per turn in game_turns, one per action in
-- game_actions, each repeating the game and turn keys and the action's type): about 29 KB and
-- 2.3 ms of SQLite work per game, 10,000 games in minutes. The turns are read only whole (games
-- show / replay / export, the record hash of `db check`), so they are now one JSON array per
-- game, in the record's own form: [{"actions": [...], "scores": [...]}, ...] ("scores" only
-- where claimed); the model's scores after each turn are one array too (null where a turn was
-- not replayed, after the first problem).
ALTER TABLE games ADD COLUMN turns TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(turns));
ALTER TABLE games ADD COLUMN model_scores TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(model_scores));

-- Games imported under schema 1 keep their turns, actions and scores.
UPDATE games SET
  turns = (
    SELECT json_group_array(json(entry)) FROM (
      SELECT CASE WHEN t.claimed_scores IS NULL
               THEN json_object('actions', (
                 SELECT json_group_array(json(action)) FROM (
                   SELECT a.action FROM game_actions a
                   WHERE a.game_id = t.game_id AND a.turn = t.turn ORDER BY a.seq)))
               ELSE json_object('actions', (
                 SELECT json_group_array(json(action)) FROM (
                   SELECT a.action FROM game_actions a
                   WHERE a.game_id = t.game_id AND a.turn = t.turn ORDER BY a.seq)),
                 'scores', json(t.claimed_scores))
             END AS entry
      FROM game_turns t WHERE t.game_id = games.game_id ORDER BY t.turn)),
  model_scores = (
    SELECT json_group_array(json(m)) FROM (
      SELECT t.model_scores AS m FROM game_turns t WHERE t.game_id = games.game_id
      ORDER BY t.turn));

DROP TABLE game_actions;
DROP TABLE game_turns;
