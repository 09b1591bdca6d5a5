#include "database/search_words.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>
#include <utility>

namespace carc::database {

std::string FoldCzech(std::string_view in) {
  static constexpr std::array<std::pair<std::string_view, char>, 30> kFold = {{
      {"á", 'a'}, {"Á", 'a'}, {"č", 'c'}, {"Č", 'c'}, {"ď", 'd'}, {"Ď", 'd'},
      {"é", 'e'}, {"É", 'e'}, {"ě", 'e'}, {"Ě", 'e'}, {"í", 'i'}, {"Í", 'i'},
      {"ň", 'n'}, {"Ň", 'n'}, {"ó", 'o'}, {"Ó", 'o'}, {"ř", 'r'}, {"Ř", 'r'},
      {"š", 's'}, {"Š", 's'}, {"ť", 't'}, {"Ť", 't'}, {"ú", 'u'}, {"Ú", 'u'},
      {"ů", 'u'}, {"Ů", 'u'}, {"ý", 'y'}, {"Ý", 'y'}, {"ž", 'z'}, {"Ž", 'z'},
  }};
  std::string out;
  for (size_t i = 0; i < in.size();) {
    bool folded = false;
    for (const auto& [from, to] : kFold) {
      if (in.substr(i, from.size()) == from) {
        out.push_back(to);
        i += from.size();
        folded = true;
        break;
      }
    }
    if (!folded)
      out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(in[i++]))));
  }
  return out;
}

namespace {

// English and Czech words that carry no meaning in a rules question.
const std::set<std::string_view>& StopWords() {
  static const std::set<std::string_view> words = {
      // English
      "a", "about", "again", "away", "without", "all", "also", "am", "an", "and", "any", "anybody",
      "anyone", "are", "as", "at", "be", "been", "being", "both", "but", "by", "can", "cannot",
      "could", "did", "didn", "do", "does", "doesn", "doing", "don", "during", "each", "else",
      "even", "ever", "for", "from", "had", "happen", "happened", "happens", "has", "have",
      "having", "many", "much", "he", "her", "here", "him", "his", "how", "i", "if", "in", "into",
      "is", "isn", "it", "its", "itself", "just", "ll", "m", "may", "me", "might", "mine", "must",
      "my", "myself", "no", "nor", "not", "now", "of", "off", "on", "once", "or", "our", "ours",
      "out", "re", "s", "shall", "she", "should", "so", "some", "somebody", "someone", "still",
      "such", "t", "than", "that", "the", "their", "theirs", "them", "then", "there", "these",
      "they", "this", "those", "though", "to", "too", "up", "us", "ve", "very", "was", "we", "were",
      "what", "whatever", "when", "where", "whether", "which", "while", "who", "whom", "whose",
      "why", "will", "with", "would", "you", "your", "yours",
      // Czech (accents removed, as FoldCzech gives them)
      "aby", "ale", "ani", "by", "co", "do", "i", "jak", "jake", "jaky", "je", "jeho", "jeji",
      "jejich", "jen", "jsem", "jsou", "k", "kdo", "kdy", "kdyz", "ke", "ktera", "ktere", "ktery",
      "lze", "mohu", "muzu", "na", "nebo", "o", "pri", "pro", "se", "si", "ta", "tak", "take",
      "ten", "to", "ty", "u", "uz", "v", "ve", "z", "za", "ze"};
  return words;
}

struct Synonyms {
  std::string_view key;  // folded, lower case
  bool prefix;           // key matches any word it begins (for inflected Czech words)
  std::vector<std::string_view> terms;
  bool replace = false;  // the word itself is not looked for, only its terms ("over" -> end)
};

// Player words -> the words of the rulings. Terms are FTS5 strings; a term of several words
// is a phrase. Sources: the base rulebook's vocabulary and the Czech pages of the seeds
// (družiník = meeple, fantom = phantom, dáma = dame, dopis = message, dárek = gift, kartička =
// tile, karta = card, koncil = synod, ...).
const std::vector<Synonyms>& Vocabulary() {
  static const std::vector<Synonyms> v = {
      // Figures by the feature they stand on.
      {"knight", false, {"city", "meeple"}},
      {"thief", false, {"road", "meeple"}},
      {"thieve", false, {"road", "meeple", "thief"}},
      {"robber", false, {"road", "meeple", "thief"}},
      {"highwayman", false, {"road", "meeple", "thief"}},
      {"farmer", false, {"field", "meeple"}},
      {"peasant", false, {"field", "meeple", "farmer"}},
      {"meadow", false, {"field"}},
      {"farm", false, {"field"}},
      {"monk", false, {"monastery", "meeple"}},
      {"cloister", false, {"monastery"}},
      {"abbey", false, {"monastery"}},
      {"church", false, {"monastery"}},
      // The features, as the rules name them together.
      {"road", false, {"feature"}},
      {"city", false, {"feature"}},
      {"cities", false, {"feature"}},
      {"field", false, {"feature"}},
      {"monastery", false, {"feature"}},
      // Figures in general.
      {"meeple", false, {"figure"}},
      {"follower", false, {"meeple", "figure"}},
      {"figure", false, {"meeple"}},
      {"worker", false, {"meeple", "figure"}},
      {"pawn", false, {"meeple", "figure"}},
      {"man", false, {"meeple", "figure"}},
      {"men", false, {"meeple", "figure"}},
      {"messenger", false, {"dame", "message"}},
      {"ghost", false, {"phantom"}},
      // Tiles and cards.
      {"card", false, {"tile"}},
      {"piece", false, {"tile", "figure"}},
      {"square", false, {"tile"}},
      // Scoring words.
      {"shield", false, {"coat of arms"}},
      {"pennant", false, {"coat of arms"}},
      {"banner", false, {"coat of arms"}},
      {"crest", false, {"coat of arms"}},
      {"tie", false, {"ties", "tied", "majority"}},
      {"tied", false, {"tie", "ties", "majority"}},
      {"equal", false, {"tied", "majority"}},
      {"most", false, {"majority"}},
      {"finish", false, {"completed"}},
      {"finished", false, {"completed"}},
      {"done", false, {"completed"}},
      {"closed", false, {"completed"}},
      {"unfinished", false, {"incomplete"}},
      {"incomplete", false, {"unfinished"}},
      {"worth", false, {"score", "points"}},
      {"score", false, {"points"}},
      {"scores", false, {"points"}},
      {"point", false, {"score"}},
      {"put", false, {"place"}},
      {"lay", false, {"place"}},
      {"play", false, {"place", "use"}},
      {"already", false, {"occupied"}},
      {"empty", false, {"unoccupied"}},
      {"free", false, {"unoccupied"}},
      {"back", false, {"return"}},
      {"reserve", false, {"supply"}},
      {"pool", false, {"supply"}},
      {"throw", false, {"discard"}},
      {"exchange", false, {"swap"}},
      {"switch", false, {"swap"}},
      {"block", false, {"cancel"}},
      {"stop", false, {"cancel"}},
      {"circle", false, {"loop"}},
      {"crossroad", false, {"junction"}},
      {"crossroads", false, {"junction"}},
      {"intersection", false, {"junction"}},
      {"over", false, {"end"}, /*replace=*/true},
      {"run", false, {"empty"}},
      {"keep", false, {"hold"}},
      {"hold", false, {"keep"}},
      {"regular", false, {"normal"}},
      {"ordinary", false, {"normal"}},
      {"earlier", false, {"older", "previous"}},
      {"older", false, {"earlier"}},
      {"previous", false, {"earlier", "older"}},
      {"deck", false, {"card"}},
      {"make", false, {"force"}},
      {"another", false, {"opponent"}},
      {"other", false, {"opponent"}},
      {"opponent", false, {"another"}},
      {"pick", false, {"choose"}},
      {"thrown", false, {"discard"}},
      {"toss", false, {"discard"}},
      {"surrounded", false, {"neighbours"}},
      // Expansion names and figures, Czech (the seed pages) and English alternatives.
      {"christmas", false, {"christmas present"}},
      {"xmas", false, {"christmas present"}},
      {"vanocni", false, {"christmas present"}},
      {"darek", false, {"gift", "christmas present"}},
      {"darky", false, {"gift"}},
      {"darku", false, {"gift"}},
      {"present", false, {"gift"}},
      {"koncil", false, {"synod"}},
      {"vyklizeni", false, {"road sweeper"}},
      {"postoje", false, {"change position"}},
      {"postoj", false, {"change position"}},
      {"vyplaceni", false, {"cash out"}},
      {"vyber", false, {"take 2"}},
      {"dopis", true, {"message", "messengers"}},
      {"dama", false, {"dame"}},
      {"damu", false, {"dame"}},
      {"damy", false, {"dame"}},
      {"druzinik", true, {"meeple", "figure"}},
      {"druzin", true, {"phantom"}},
      {"fantom", true, {"phantom"}},
      {"figurk", true, {"figure", "meeple"}},
      {"rytir", true, {"knight", "city"}},
      {"lupic", true, {"thief", "road"}},
      {"sedlak", true, {"farmer", "field"}},
      {"rolnik", true, {"farmer", "field"}},
      {"mnich", true, {"monk", "monastery"}},
      {"klaster", true, {"monastery"}},
      {"louk", true, {"field"}},
      {"cest", true, {"road"}},
      {"mest", true, {"city"}},
      {"kartick", true, {"tile"}},
      {"karta", false, {"card"}},
      {"karty", false, {"card"}},
      {"kartu", false, {"card"}},
      {"karet", false, {"card"}},
      {"balic", true, {"deck"}},
      {"erb", true, {"coat of arms"}},
      {"stavitel", true, {"builder"}},
      {"bod", true, {"points", "score"}},
      {"hodnoceni", true, {"scoring", "score"}},
      {"zasob", true, {"supply"}},
      {"smyck", true, {"loop"}},
      {"blesk", true, {"lightning"}},
  };
  return v;
}

// The synonyms of a folded word: an exact key, the English singular (cards, thieves, cities
// are looked up as card, thieve, city), else the longest prefix key.
const Synonyms* Lookup(const std::string& w) {
  std::vector<std::string> forms = {w};
  if (w.size() > 3 && w.back() == 's') forms.push_back(w.substr(0, w.size() - 1));
  if (w.size() > 4 && w.ends_with("ies")) forms.push_back(w.substr(0, w.size() - 3) + "y");
  for (const std::string& f : forms)
    for (const Synonyms& s : Vocabulary())
      if (!s.prefix && s.key == f) return &s;
  const Synonyms* best = nullptr;
  for (const Synonyms& s : Vocabulary())
    if (s.prefix && w.starts_with(s.key) && (!best || s.key.size() > best->key.size())) best = &s;
  return best;
}

// Runs of letters and digits, lower case; bytes >= 0x80 belong to words, so UTF-8 letters
// stay whole.
std::vector<std::string> RawWords(const std::string& query) {
  std::vector<std::string> raw;
  std::string cur;
  for (unsigned char ch : query) {
    if (std::isalnum(ch) || ch >= 0x80) {
      cur.push_back(static_cast<char>(std::tolower(ch)));
    } else if (!cur.empty()) {
      raw.push_back(std::move(cur));
      cur.clear();
    }
  }
  if (!cur.empty()) raw.push_back(std::move(cur));
  return raw;
}

}  // namespace

std::vector<std::string> NamedExpansions(const std::vector<QueryWord>& words) {
  static const std::vector<std::pair<std::string_view, std::string_view>> kNames = {
      {"phantom", "phantom"},
      {"druzin", "phantom"},
      {"fantom", "phantom"},
      {"ghost", "phantom"},
      {"gift", "gifts"},
      {"synod", "gifts"},
      {"koncil", "gifts"},
      {"sweeper", "gifts"},
      {"cash", "gifts"},
      {"vyklizeni", "gifts"},
      {"vyplaceni", "gifts"},
      {"dark", "gifts"},
      {"message", "messengers"},
      {"messenger", "messengers"},
      {"dame", "messengers"},
      {"dopis", "messengers"},
      {"dama", "messengers"},
      {"card", "christmas_present"},
      {"deck", "christmas_present"},
      {"christmas", "christmas_present"},
      {"xmas", "christmas_present"},
      {"vanocni", "christmas_present"},
      {"lightning", "christmas_present"},
      {"karet", "christmas_present"},
      {"kart", "christmas_present"},
  };
  std::vector<std::string> out;
  for (const QueryWord& w : words) {
    const std::string f = FoldCzech(w.word);
    for (const auto& [prefix, expansion] : kNames)
      if (f.starts_with(prefix) && !(prefix == "kart" && f.starts_with("kartick")) &&
          !(prefix == "dark" && f != "darky" && f != "darku" && f != "darek") &&
          std::find(out.begin(), out.end(), expansion) == out.end())
        out.emplace_back(expansion);
  }
  return out;
}

bool IsStopWord(std::string_view word) { return StopWords().count(FoldCzech(word)) > 0; }

std::vector<std::string> StopWordsIn(const std::string& query) {
  std::vector<std::string> out;
  const std::vector<std::string> raw = RawWords(query);
  if (std::all_of(raw.begin(), raw.end(), [](const std::string& w) { return IsStopWord(w); }))
    return out;  // ParseQuery keeps them all
  for (const std::string& w : raw)
    if (IsStopWord(w) && std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);
  return out;
}

std::vector<QueryWord> ParseQuery(const std::string& query) {
  const std::vector<std::string> raw = RawWords(query);

  std::vector<QueryWord> out;
  std::set<std::string> seen;
  auto add = [&](const std::string& w) {
    if (!seen.insert(FoldCzech(w)).second) return;
    QueryWord q{w, {w}};
    const Synonyms* s = Lookup(FoldCzech(w));
    if (s && s->replace) {
      q.terms.clear();
      q.literal = false;
    }
    if (s)
      for (std::string_view t : s->terms)
        if (std::find(q.terms.begin(), q.terms.end(), t) == q.terms.end()) q.terms.emplace_back(t);
    out.push_back(std::move(q));
  };
  for (const std::string& w : raw)
    if (!IsStopWord(w)) add(w);
  if (out.empty())
    for (const std::string& w : raw) add(w);
  if (out.size() > kMaxQueryWords) out.resize(kMaxQueryWords);  // bounds the work per question
  return out;
}

}  // namespace carc::database
