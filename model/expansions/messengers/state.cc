#include "model/expansions/messengers/state.h"

#include <algorithm>

namespace carc::exp::messengers {

namespace {

struct MessageInfo {
  Message message;
  const char* name;
  const char* title;
  const char* ruling;
};

constexpr MessageInfo kInfo[kMessages] = {
    {Message::kSmallestRoad, "smallest-road", "smallest road", "MSG-1"},
    {Message::kSmallestCity, "smallest-city", "smallest city", "MSG-2"},
    {Message::kMonastery, "monastery", "smallest monastery", "MSG-3"},
    {Message::kExtraTile, "extra-tile", "extra tile", "MSG-4"},
    {Message::kCoatsOfArms, "coats-of-arms", "2 points per coat of arms", "MSG-5"},
    {Message::kKnights, "knights", "2 points per knight", "MSG-6"},
    {Message::kFarmers, "farmers", "2 points per farmer", "MSG-7"},
    {Message::kScoreAndReturn, "score-and-return", "score and return a meeple", "MSG-8"},
};

// MSG-FN2: the number printed on each message, index = Message. Mindok Big Box 6 (1st and 2nd
// printing) moved 4 to 7, 5 to 4, 6 to 5 and 7 to 6; MSG-FN18: its knight and farmer messages
// are therefore 5 and 6.
constexpr int kHigNumbers[kMessages] = {1, 2, 3, 4, 5, 6, 7, 8};
constexpr int kMindokBb6Numbers[kMessages] = {1, 2, 3, 7, 4, 5, 6, 8};

}  // namespace

std::string_view FigureName(Figure f) { return f == Figure::kMeeple ? "meeple" : "dame"; }

std::optional<Figure> ParseFigure(std::string_view s) {
  if (s == "meeple") return Figure::kMeeple;
  if (s == "dame") return Figure::kDame;
  return std::nullopt;
}

std::string_view MessageName(Message m) { return kInfo[static_cast<int>(m)].name; }
std::string_view MessageTitle(Message m) { return kInfo[static_cast<int>(m)].title; }
std::string_view MessageRuling(Message m) { return kInfo[static_cast<int>(m)].ruling; }

std::optional<Message> ParseMessageName(std::string_view s) {
  for (const MessageInfo& i : kInfo)
    if (s == i.name) return i.message;
  return std::nullopt;
}

std::string_view NumberingName(Numbering n) { return n == Numbering::kHig ? "hig" : "mindok-bb6"; }

std::optional<Numbering> ParseNumbering(std::string_view s) {
  if (s == "hig") return Numbering::kHig;
  if (s == "mindok-bb6") return Numbering::kMindokBb6;
  return std::nullopt;
}

int MessageNumber(Numbering n, Message m) {
  return (n == Numbering::kHig ? kHigNumbers : kMindokBb6Numbers)[static_cast<int>(m)];
}

std::optional<Message> MessageByNumber(Numbering n, int number) {
  for (int i = 0; i < kMessages; ++i)
    if (MessageNumber(n, static_cast<Message>(i)) == number) return static_cast<Message>(i);
  return std::nullopt;
}

std::string_view VariantName(Variant v) {
  switch (v) {
    case Variant::kC3:
      return "c3";
    case Variant::kC2PrintedAlone:
      return "c2-printed-alone";
    case Variant::kOriginalUnlimitedChain:
      return "original-unlimited-chain";
    case Variant::kRevision2025:
      return "revision-2025";
  }
  return "?";
}

std::optional<Variant> ParseVariant(std::string_view s) {
  for (Variant v : {Variant::kC3, Variant::kC2PrintedAlone, Variant::kOriginalUnlimitedChain,
                    Variant::kRevision2025})
    if (s == VariantName(v)) return v;
  return std::nullopt;
}

std::string_view OriginName(Origin o) {
  switch (o) {
    case Origin::kScoring:
      return "scoring";
    case Origin::kMessage:
      return "message";
    case Origin::kOutside:
      return "outside";
  }
  return "?";
}

std::optional<Origin> ParseOrigin(std::string_view s) {
  for (Origin o : {Origin::kScoring, Origin::kMessage, Origin::kOutside})
    if (s == OriginName(o)) return o;
  return std::nullopt;
}

int State::Points(PlayerId p, Figure f) const {
  if (p < 0 || p >= static_cast<int>(tracks.size())) return 0;
  return tracks[p].points[static_cast<int>(f)];
}

bool State::DameReturned(PlayerId p) const {
  return p >= 0 && p < static_cast<int>(tracks.size()) && tracks[p].dame_returned;
}

void State::Sync(int players) {
  if (static_cast<int>(tracks.size()) < players) tracks.resize(players);
  if (static_cast<int>(turn_figure.size()) < players) turn_figure.resize(players, -1);
}

}  // namespace carc::exp::messengers
