#pragma once
// SVG pictures of positions and rulings, written directly (no picture library).
// `carc render` and `carc adjudicate --svg` (adjudicator/cmd_render.cc) call these.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/core/position.h"
#include "model/core/status.h"

namespace carc::render {

enum class Mark { kScored, kDisputed };  // gold: scored in the ruling; red: the illegal claim

// What to draw besides the position itself.
struct Picture {
  std::string title;
  std::optional<model::Coord> square;  // the square in question
  bool square_illegal = false;         // drawn red instead of orange
  std::map<int, Mark> features;        // feature root -> highlight
  std::vector<std::string> caption;    // the verdict, under the board
  std::string step;                    // the step to show when not the position's own
                                       // (final scoring answers at step draw, no tile left)
  std::vector<int> scores_after;       // per player, when the ruling changes scores
  // Numbered labels: the caption's score event n is drawn as "n" on its feature (at the node).
  std::vector<std::pair<int, int>> labels;  // (number, board node)
  // Incomplete cities a scored farm touches, crossed out (BASE-END-FARM: left out).
  std::vector<int> crossed;  // feature roots
  // Figures the ruling's actions returned to their owners, drawn faded where they stood.
  std::vector<model::Figure> returned;
};

std::string RenderSvg(const model::Position& pos, const Picture& pic);

// `carc render`: the position of a position file; the square in question is turn.placed or
// the question's place_tile action.
model::StatusOr<std::string> RenderPositionFile(const nlohmann::json& doc,
                                                const std::string& source);

// `carc adjudicate --svg`: the position after the question, as the ruling's "position" is (a
// legal question: after the whole turn, supplies, scores and whose turn as then; an illegal one:
// up to the illegal action); figures it returned are drawn faded where they stood, the features
// the ruling scores are highlighted and the ruling is the caption.
model::StatusOr<std::string> RenderRuling(const nlohmann::json& doc, const nlohmann::json& ruling,
                                          const std::string& source);

// The question of `doc` (`ask`: apply or final_score) replayed as `carc adjudicate` does, up to
// the first illegal action and, for a legal one, the turn's automatic end: marks in `pic` the
// square in question, the features the score events score (numbered labels, a farm's crossed-out
// cities) and the feature an illegal action names. `pos` is left after the question's actions.
// Shared by the picture and the workbench's board marks (adjudicator/serve/highlights.cc).
void MarkQuestion(model::Position& pos, const nlohmann::json& doc, const std::string& ask,
                  const std::string& source, Picture& pic);

// The caption lines for a ruling (verdict, actions, score events, violations, claim).
std::vector<std::string> CaptionLines(const nlohmann::json& ruling);

}  // namespace carc::render
