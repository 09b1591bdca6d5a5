#pragma once
// A module's state described for a picture (the describe-state hook, hooks.h): headings, lines,
// cards, face-down piles and a scoring track, in reading order. model/render draws them in the
// legend column beside the board without knowing which module described them; the module
// chooses what to say and how its cards look. The helpers below are the wording the modules share
// (card titles, player names, "key: value" lines for what a module leaves undescribed).

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace carc::model {

class Position;

// A card's colours (SVG colour strings): its face, and its edge (also the back of a pile).
struct CardLook {
  std::string fill;
  std::string stroke;
};

// One card drawn face up, its title written on it.
struct PictureCard {
  std::string title;  // as printed (PictureTitle)
  CardLook look;
  bool lightning = false;  // the lightning symbol at its foot (played at once)
  std::string foot;        // else a word at its foot (e.g. "end"); empty: none
  std::string tip;         // the tooltip
};

// A line of text, wrapped to the column; a heading starts a module's part.
struct PictureLine {
  std::string text;
  bool heading = false;
};

// Cards in rows, face up.
struct PictureCards {
  std::vector<PictureCard> cards;
};

// A face-down pile of `count` cards (the count written on its back) with a caption beside it.
struct PicturePile {
  int count = 0;
  std::string back;  // the colour of the backs
  std::string caption;
  std::string tip;  // the tooltip; empty: none
};

// A scoring track of `spaces` spaces in rows of `per_row`, every `dark_every`th space dark
// (from 0), with the players' markers.
struct PictureTrack {
  struct Marker {
    int player = 0;      // drawn in this player's colour
    int points = 0;      // the marker stands on space points mod `spaces`
    int place = 0;       // 0..3: its place among the markers sharing a space
    std::string letter;  // written on it
    std::string tip;
  };
  int spaces = 50;
  int per_row = 10;
  int dark_every = 5;
  std::vector<Marker> markers;
};

using PictureItem = std::variant<PictureLine, PictureCards, PicturePile, PictureTrack>;

// What a module's describe-state hook fills, item after item.
struct StatePicture {
  std::vector<PictureItem> items;

  void Heading(std::string text) { items.push_back(PictureLine{std::move(text), true}); }
  void Line(std::string text) { items.push_back(PictureLine{std::move(text), false}); }
  void Cards(std::vector<PictureCard> cards) { items.push_back(PictureCards{std::move(cards)}); }
  void Pile(int count, std::string back, std::string caption, std::string tip = "") {
    items.push_back(PicturePile{count, std::move(back), std::move(caption), std::move(tip)});
  }
  void Track(PictureTrack track) { items.push_back(std::move(track)); }
};

// A card's name as printed in the picture: "road_sweeper" -> "Road sweeper", "3-per-arms" ->
// "3 per arms".
std::string PictureTitle(const std::string& name);

// The name of player `index` (a JSON number) of pos; "?" out of range; else the JSON itself.
std::string PlayerNameOf(const Position& pos, const nlohmann::json& index);

// "road:EW at (1, 0)" from a written feature reference {x, y, feature}.
std::string FeatureAt(const nlohmann::json& ref);

// The names of an array of card names, or of a {name: count} object (an unordered pile).
std::vector<std::string> CardNames(const nlohmann::json& j);

// "Synod x2, Cash out": a long pile's cards by kind, in first-seen order.
std::string CountedCards(const std::vector<std::string>& names);

// "key: value" lines for what is left of a section, nested keys joined with dots after `prefix`.
void FlattenInto(const nlohmann::json& j, const std::string& prefix, StatePicture& out);

}  // namespace carc::model
