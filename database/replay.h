#pragma once
// Replays a game record through the model and gives its verdict: every action legal and every
// claimed score as the rules give it ("consistent"), or the first illegal action ("illegal") or
// the first score that differs ("score-mismatch"), each with the ruling IDs that decide it.
// A record that does not fit the rules' input (unknown tile, a feature the tile lacks, two turns
// run together) is bad input: a kMalformed Status, not a verdict.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "database/game_record.h"
#include "model/core/status.h"

namespace carc::database {

enum class GameVerdict { kConsistent, kIllegal, kScoreMismatch };
const char* GameVerdictName(GameVerdict v);

struct ReplayResult {
  GameVerdict verdict = GameVerdict::kConsistent;
  int turn = 0;     // 1-based turn of the first problem; 0: none, or the final scores
  int action = -1;  // 0-based action in that turn (illegal only)
  std::string text;
  std::vector<std::string> cited;  // ruling IDs, first-seen order
  // Model scores after each replayed turn (turns after the first problem are not replayed).
  std::vector<std::vector<int>> model_scores;
  bool finished = false;  // final scoring was done (no tile left)
  std::vector<int> final_model;
  nlohmann::json log = nlohmann::json::array();  // per turn, when asked for (games replay)
  nlohmann::json position;  // ReplayToTurn: the position before that turn; null if not reached
};

// `source` names the record in messages. `with_log` fills ReplayResult::log with every turn's
// actions (described), score events and scores. `from`: where a record read from another format
// came from (messages name the file's pointers; its figure ids are checked), or nullptr.
//
// A record no game can produce is bad input (kMalformed), refused where it first becomes
// impossible: a start tile or a draw beyond the tile set's count of that tile (BASE-SETUP), a
// start tile that does not match or touch the others (BASE-PLACE-EDGE, BASE-PLACE-ADJ), a figure
// id deployed while that figure stands on the board (BASE-MEEPLE-SUPPLY). The tiles placed in
// turns are held to the same rules by the tile step, as illegal actions.
model::StatusOr<ReplayResult> Replay(const GameRecord& r, const std::string& source,
                                     bool with_log = false, const SourceMap* from = nullptr);

// Replays the record up to turn `turn` (1-based; turns + 1 is the position after the last turn)
// and sets ReplayResult::position to the position file there: the next tile drawn, each player's
// score as the rules give it. When an earlier turn is illegal or its claimed scores differ from
// the rules', the replay stops there and `position` stays null: the verdict says why.
// kUsage for a turn outside 1..turns + 1.
model::StatusOr<ReplayResult> ReplayToTurn(const GameRecord& r, const std::string& source,
                                           int turn);

}  // namespace carc::database
