#pragma once
// How `carc rulings search` reads a player's question: its words, less the stop words ("the",
// "can", "a", and Czech "jak", "na" ...), each with the words the rulings use for the same thing
// (knight = a figure in a city, thief = on a road, farmer = on a field, monk = in a monastery,
// card / piece = tile, letter / lady = the Messengers' message and dame). Czech words are reduced
// to their dictionary form by Hunspell with Debian's Czech dictionary (hunspell-cs): "dopisy",
// "dopisů" -> dopis; a table of the rule terms of the Czech pages then names the English words
// of the rulings (dopis = message, družiník = meeple, kartička = tile). An English word that no
// ruling holds is corrected to the nearest word of the rulings ("monastry" -> monastery).

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace carc::database {

struct QueryWord {
  std::string word;                // as typed, lower case (ASCII letters folded)
  std::vector<std::string> terms;  // what to look for: the word first, then its synonyms
  bool literal = true;             // terms[0] is the word itself (false: synonyms only)
  std::string searched;            // the word as looked for: corrected or in dictionary form
  bool czech = false;              // a Czech word (Hunspell knew it)
  bool corrected = false;          // a typo, replaced by the nearest word of the rulings
};

inline constexpr size_t kMaxQueryWords = 32;

// The words of the rulings (lower case, accents removed) and how often each occurs: what a
// misspelt word is corrected to.
using IndexVocabulary = std::map<std::string, int>;

// Adds the words of `text` to `vocab`.
void AddToVocabulary(std::string_view text, IndexVocabulary& vocab);

// The non-stop words of `query`, in order, without repeats, at most kMaxQueryWords of them.
// A question with more sets `*too_many` (when given) and keeps the first kMaxQueryWords: a
// caller that answers a player refuses it (SearchRulings) rather than search a cut question.
// With `vocab`, an ASCII word that is neither in it, nor a game word, nor Czech is corrected to
// the nearest word of it (one edit for words of 4 to 7 letters, two from 8). A question of stop
// words only gives no words (the caller says so instead of listing arbitrary rulings).
// "not finished" is one word (incomplete); "how many", "each", "both" are kept.
std::vector<QueryWord> ParseQuery(const std::string& query, const IndexVocabulary* vocab = nullptr,
                                  bool* too_many = nullptr);

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
// Lower case, diacritics kept: ASCII and the capitals of Latin-1 and Latin Extended-A (every
// Czech capital: Á Č Ď É Ě Í Ň Ó Ř Š Ť Ú Ů Ý Ž). "DÁRKY" -> "dárky".
std::string LowerCzech(std::string_view utf8);

// The dictionary forms of a Czech word, folded (FoldCzech), from Hunspell's Czech dictionary:
// "družiníka" -> {"druzinik"}; a negated form keeps its "ne" ("nedokončený" -> "nedokonceny").
// Empty when the dictionary does not know the word.
std::vector<std::string> CzechStems(std::string_view word);

// Czech text as the search index holds it: every word in its first dictionary form (folded),
// unknown words folded as they are, stop words left out. For the Czech players' questions.
std::string CzechIndexText(std::string_view text);

// Whether the Czech dictionary could be loaded (the files named at build time).
bool CzechDictionaryLoaded();

}  // namespace carc::database
