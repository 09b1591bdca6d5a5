#pragma once
// How `carc rulings search` reads a player's question: its words, less the stop words ("the",
// "can", "a", and Czech "jak", "na" ...), each with the words the rulings use for the same thing
// (knight = a figure in a city, thief = on a road, farmer = on a field, monk = in a monastery,
// card / piece = tile, and the Czech names of the expansions and figures from the rule pages).

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace carc::database {

struct QueryWord {
  std::string word;                // as typed, lower case (ASCII letters folded)
  std::vector<std::string> terms;  // what to look for: the word first, then its synonyms
  bool literal = true;             // terms[0] is the word itself (false: synonyms only)
};

inline constexpr size_t kMaxQueryWords = 32;

// The non-stop words of `query`, in order, without repeats, at most kMaxQueryWords of them. When
// every word is a stop word, all of them are kept, so that a question is never silently empty.
std::vector<QueryWord> ParseQuery(const std::string& query);

// The expansions (ids of database/rulings/*.json) that words of the question name, by name or
// by a component only they have: "phantom", "gift" / "synod", "message" / "dame", "card" /
// "deck" (Christmas Present), and their Czech names. A question naming none is about the base
// game first (rulings_query.cc ranks other expansions' rulings a little lower).
std::vector<std::string> NamedExpansions(const std::vector<QueryWord>& words);

// The stop words of `query` that ParseQuery leaves out, in order, without repeats.
std::vector<std::string> StopWordsIn(const std::string& query);

// True for a stop word; `word` in lower case (Czech letters may keep their accents).
bool IsStopWord(std::string_view word);

// Lower case, with the accents of Czech letters removed ("Družiník" -> "druzinik").
std::string FoldCzech(std::string_view utf8);

}  // namespace carc::database
