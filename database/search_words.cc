#include "database/search_words.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>
#include <utility>

namespace carc::database {

std::string LowerCzech(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(in[i]);
    if (c < 0x80) {
      out.push_back(static_cast<char>(std::tolower(c)));
      continue;
    }
    // A two-byte sequence 110xxxxx 10xxxxxx: U+0080..U+07FF.
    if ((c & 0xE0) == 0xC0 && i + 1 < in.size() &&
        (static_cast<unsigned char>(in[i + 1]) & 0xC0) == 0x80) {
      int cp = ((c & 0x1F) << 6) | (static_cast<unsigned char>(in[i + 1]) & 0x3F);
      // Latin-1 capitals (Á É Í Ó Ú Ý ...) are 0x20 below their small letters, but for ×.
      if (cp >= 0xC0 && cp <= 0xDE && cp != 0xD7) cp += 0x20;
      // Latin Extended-A pairs capital and small letter: even/odd (Č č, Ď ď, Ě ě, Ř ř, Š š,
      // Ť ť, Ů ů), odd/even in U+0139..U+0148 and U+0179..U+017E (Ň ň, Ž ž).
      const bool odd_first = (cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17E);
      if (cp >= 0x100 && cp <= 0x17F && cp != 0x130 && cp != 0x131 && cp != 0x138 && cp != 0x149 &&
          cp != 0x17F && (cp % 2 == (odd_first ? 1 : 0)))
        ++cp;
      out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
      ++i;
      continue;
    }
    out.push_back(static_cast<char>(c));
  }
  return out;
}

std::string FoldCzech(std::string_view in) {
  static constexpr std::array<std::pair<std::string_view, char>, 30> kFold = {{
      {"á", 'a'}, {"Á", 'a'}, {"č", 'c'}, {"Č", 'c'}, {"ď", 'd'}, {"Ď", 'd'},
      {"é", 'e'}, {"É", 'e'}, {"ě", 'e'}, {"Ě", 'e'}, {"í", 'i'}, {"Í", 'i'},
      {"ň", 'n'}, {"Ň", 'n'}, {"ó", 'o'}, {"Ó", 'o'}, {"ř", 'r'}, {"Ř", 'r'},
      {"š", 's'}, {"Š", 's'}, {"ť", 't'}, {"Ť", 't'}, {"ú", 'u'}, {"Ú", 'u'},
      {"ů", 'u'}, {"Ů", 'u'}, {"ý", 'y'}, {"Ý", 'y'}, {"ž", 'z'}, {"Ž", 'z'},
  }};
  std::string out;
  out.reserve(in.size());
  for (size_t i = 0; i < in.size();) {
    // Every folded letter is a two-byte UTF-8 sequence: an ASCII byte is only lowered (most
    // of every text; trying the 30 letters at each byte was most of a search's time).
    const unsigned char c = static_cast<unsigned char>(in[i]);
    if (c < 0x80) {
      out.push_back(static_cast<char>(std::tolower(c)));
      ++i;
      continue;
    }
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

// English words that carry no meaning in a rules question. Not "each", "both", "many": "how
// many", "each player", "both figures" ask for a number or for all (they are searched).
const std::set<std::string_view>& StopWords() {
  static const std::set<std::string_view> words = {
      // English
      "a", "about", "again", "away", "without", "all", "also", "am", "an", "and", "any", "anybody",
      "anyone", "are", "as", "at", "be", "been", "being", "but", "by", "can", "cannot", "could",
      "did", "didn", "do", "does", "doesn", "doing", "don", "during", "else", "even", "ever", "for",
      "from", "had", "happen", "happened", "happens", "has", "have", "having", "he", "her", "here",
      "him", "his", "how", "i", "if", "in", "into", "is", "isn", "it", "its", "itself", "just",
      "ll", "m", "may", "me", "might", "mine", "much", "must", "my", "myself", "no", "nor", "not",
      "now", "of", "off", "on", "once", "or", "our", "ours", "out", "re", "s", "shall", "she",
      "should", "so", "some", "somebody", "someone", "still", "such", "t", "than", "that", "the",
      "their", "theirs", "them", "then", "there", "these", "they", "this", "those", "though", "to",
      "too", "up", "us", "ve", "very", "was", "we", "were", "what", "whatever", "when", "where",
      "whether", "which", "while", "who", "whom", "whose", "why", "will", "with", "would", "you",
      "your", "yours",
      // Czech (accents removed, as FoldCzech gives them)
      "aby", "ale", "ani", "by", "co", "do", "i", "jak", "jake", "jaky", "je", "jeho", "jeji",
      "jejich", "jen", "jsem", "jsou", "k", "kdo", "kdy", "kdyz", "ke", "ktera", "ktere", "ktery",
      "lze", "mohu", "muzu", "na", "nebo", "o", "pri", "pro", "se", "si", "ta", "tak", "take",
      "ten", "to", "ty", "u", "uz", "v", "ve", "z", "za", "ze", "kolik", "mam", "muze", "musim"};
  return words;
}

struct Synonyms {
  std::string_view key;  // folded, lower case
  std::vector<std::string_view> terms;
  bool replace = false;  // the word itself is not looked for, only its terms ("over" -> end)
};

// Player words -> the words of the rulings (the base rulebook's vocabulary and the names
// players use for the expansions' pieces). Terms are FTS5 strings; a term of several words is
// a phrase. Czech words are in search_words_cs.cc.
const std::vector<Synonyms>& Vocabulary() {
  static const std::vector<Synonyms> v = {
      // Figures by the feature they stand on.
      {"knight", {"city", "meeple"}},
      {"thief", {"road", "meeple"}},
      {"thieve", {"road", "meeple", "thief"}},
      {"robber", {"road", "meeple", "thief"}},
      {"highwayman", {"road", "meeple", "thief"}},
      {"farmer", {"field", "meeple"}},
      {"peasant", {"field", "meeple", "farmer"}},
      {"meadow", {"field"}},
      {"farm", {"field"}},
      {"monk", {"monastery", "meeple"}},
      {"cloister", {"monastery"}},
      {"abbey", {"monastery"}},
      {"church", {"monastery"}},
      // The features, as the rules name them together.
      {"road", {"feature"}},
      {"city", {"feature"}},
      {"cities", {"feature"}},
      {"field", {"feature"}},
      {"monastery", {"feature"}},
      // Figures in general.
      {"meeple", {"figure"}},
      {"follower", {"meeple", "figure"}},
      {"figure", {"meeple"}},
      {"worker", {"meeple", "figure"}},
      {"pawn", {"meeple", "figure"}},
      {"man", {"meeple", "figure"}},
      {"men", {"meeple", "figure"}},
      {"ghost", {"phantom"}},
      // The Messengers: message tiles and the second scoring figure, by other names.
      {"messenger", {"dame", "message"}},
      {"letter", {"message"}},
      {"courier", {"message", "dame"}},
      {"lady", {"dame"}},
      {"woman", {"dame"}},
      {"queen", {"dame"}},
      {"wife", {"dame"}},
      {"marker", {"scoring meeple", "scoring figure"}},
      {"counter", {"scoring meeple", "scoring figure"}},
      {"track", {"scoring track", "dark space"}},
      {"dark", {"dark space"}},
      // Tiles and cards.
      {"card", {"tile"}},
      {"piece", {"tile", "figure"}},
      {"square", {"tile"}},
      // Scoring words.
      {"shield", {"coat of arms"}},
      {"pennant", {"coat of arms"}},
      {"banner", {"coat of arms"}},
      {"crest", {"coat of arms"}},
      {"tie", {"ties", "tied", "majority"}},
      {"tied", {"tie", "ties", "majority"}},
      {"equal", {"tied", "majority"}},
      {"most", {"majority"}},
      {"finish", {"completed"}},
      {"finished", {"completed"}},
      {"done", {"completed"}},
      {"closed", {"completed"}},
      {"unfinished", {"incomplete"}},
      {"incomplete", {"unfinished"}},
      {"worth", {"score", "points"}},
      {"score", {"points"}},
      {"scores", {"points"}},
      {"point", {"score"}},
      {"put", {"place"}},
      {"lay", {"place"}},
      {"play", {"place", "use"}},
      {"already", {"occupied"}},
      {"empty", {"unoccupied"}},
      {"free", {"unoccupied"}},
      {"back", {"return"}},
      {"later", {"return", "earlier"}},
      {"move", {"return"}},
      {"reserve", {"supply"}},
      {"pool", {"supply"}},
      {"throw", {"discard"}},
      {"exchange", {"swap"}},
      {"switch", {"swap"}},
      {"block", {"cancel"}},
      {"stop", {"cancel"}},
      {"circle", {"loop"}},
      {"crossroad", {"junction"}},
      {"crossroads", {"junction"}},
      {"intersection", {"junction"}},
      {"over", {"end"}, /*replace=*/true},
      {"run", {"empty"}},
      {"runs", {"empty"}},
      {"reshuffle", {"reshuffled", "shuffle"}},
      {"reshuffled", {"reshuffle", "shuffle"}},
      {"keep", {"hold"}},
      {"hold", {"keep", "hand"}},
      {"regular", {"normal"}},
      {"ordinary", {"normal"}},
      {"earlier", {"older", "previous"}},
      {"older", {"earlier"}},
      {"previous", {"earlier", "older"}},
      {"deck", {"card"}},
      {"make", {"force"}},
      {"another", {"opponent"}},
      {"other", {"opponent"}},
      {"opponent", {"another"}},
      {"pick", {"choose"}},
      {"thrown", {"discard"}},
      {"toss", {"discard"}},
      {"surrounded", {"neighbours"}},
      {"each", {"per", "every"}},
      {"many", {"limit", "at most"}},
      {"get", {"draw", "receive"}},
      {"both", {"two"}},
      {"added", {"sum", "add"}},
      {"together", {"sum"}},
      // Expansion names, English alternatives.
      {"christmas", {"christmas present"}},
      {"xmas", {"christmas present"}},
      {"present", {"gift"}},
      {"unopened", {"unopened gift"}},
  };
  return v;
}

// The synonyms of a folded word: an exact key, or the English singular (cards, thieves, cities
// are looked up as card, thieve, city).
const Synonyms* Lookup(const std::string& w) {
  std::vector<std::string> forms = {w};
  if (w.size() > 3 && w.back() == 's') forms.push_back(w.substr(0, w.size() - 1));
  if (w.size() > 4 && w.ends_with("ies")) forms.push_back(w.substr(0, w.size() - 3) + "y");
  for (const std::string& f : forms)
    for (const Synonyms& s : Vocabulary())
      if (s.key == f) return &s;
  return nullptr;
}

// Runs of letters and digits, lower case (LowerCzech: "DÁRKY" is "dárky", not "dÁrky"); bytes
// >= 0x80 belong to words, so UTF-8 letters stay whole. "+1" keeps its sign.
std::vector<std::string> RawWords(const std::string& query) {
  std::vector<std::string> raw;
  std::string cur;
  for (unsigned char ch : query) {
    if (std::isalnum(ch) || ch >= 0x80) {
      cur.push_back(static_cast<char>(ch));
    } else if (!cur.empty()) {
      raw.push_back(LowerCzech(cur));
      cur.clear();
    }
  }
  if (!cur.empty()) raw.push_back(LowerCzech(cur));
  return raw;
}

bool Ascii(std::string_view w) {
  return std::all_of(w.begin(), w.end(), [](unsigned char c) { return c < 0x80; });
}

// Whether the rulings hold `w` or a form of it that the index's stemmer would join to it.
bool InVocabulary(const std::string& w, const IndexVocabulary& vocab) {
  if (vocab.count(w)) return true;
  for (std::string_view suffix : {"s", "es", "d", "ed", "ing", "ly", "'s"})
    if (w.size() > suffix.size() + 2 && w.ends_with(suffix) &&
        vocab.count(w.substr(0, w.size() - suffix.size())))
      return true;
  return w.ends_with("ies") && vocab.count(w.substr(0, w.size() - 3) + "y");
}

// Optimal string alignment distance (a swap of two neighbours counts one), capped at max + 1.
size_t EditDistance(std::string_view a, std::string_view b, size_t max) {
  if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) > max) return max + 1;
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// The word of the rulings nearest to a misspelt `w` (same first letter; one edit for 5 to 7
// letters, two from 8; the commoner word on a tie); "" when none is near enough.
std::string Correct(const std::string& w, const IndexVocabulary& vocab) {
  if (w.size() < 5 || !Ascii(w) ||
      std::any_of(w.begin(), w.end(), [](unsigned char c) { return std::isdigit(c); }))
    return "";
  const size_t max = w.size() >= 8 ? 2 : 1;
  std::string best;
  size_t best_d = max + 1;
  int best_n = 0;
  for (const auto& [v, n] : vocab) {
    if (v.empty() || v[0] != w[0] || v.size() < 3) continue;
    const size_t d = EditDistance(w, v, max);
    if (d < best_d || (d == best_d && n > best_n)) {
      best = v;
      best_d = d;
      best_n = n;
    }
  }
  return best_d <= max ? best : "";
}

void AddTerms(QueryWord& q, const std::vector<std::string_view>& terms) {
  for (std::string_view t : terms)
    if (std::find(q.terms.begin(), q.terms.end(), t) == q.terms.end()) q.terms.emplace_back(t);
}

}  // namespace

// Defined in search_words_cs.cc: the English terms of a Czech dictionary form (folded), and
// whether a folded dictionary form is a Czech stop word.
const std::vector<std::string_view>* CzechTerms(const std::string& lemma);
bool IsCzechStopLemma(const std::string& lemma);

void AddToVocabulary(std::string_view text, IndexVocabulary& vocab) {
  std::string cur;
  auto flush = [&] {
    if (cur.size() >= 3) ++vocab[FoldCzech(cur)];
    cur.clear();
  };
  for (unsigned char ch : text) {
    if (std::isalnum(ch) || ch >= 0x80)
      cur.push_back(static_cast<char>(ch));
    else
      flush();
  }
  flush();
}

std::vector<std::string> NamedExpansions(const std::vector<QueryWord>& words) {
  static const std::vector<std::pair<std::string_view, std::string_view>> kNames = {
      {"phantom", "phantom"},
      {"ghost", "phantom"},
      {"gift", "gifts"},
      {"gifts", "gifts"},
      {"synod", "gifts"},
      {"road sweeper", "gifts"},
      {"sweeper", "gifts"},
      {"cash out", "gifts"},
      {"cash", "gifts"},
      {"change position", "gifts"},
      {"take 2", "gifts"},
      {"message", "messengers"},
      {"messages", "messengers"},
      {"messenger", "messengers"},
      {"messengers", "messengers"},
      {"dame", "messengers"},
      {"dark space", "messengers"},
      {"dark", "messengers"},
      {"card", "christmas_present"},
      {"cards", "christmas_present"},
      {"deck", "christmas_present"},
      {"christmas", "christmas_present"},
      {"christmas present", "christmas_present"},
      {"xmas", "christmas_present"},
      {"lightning", "christmas_present"},
  };
  std::vector<std::string> out;
  for (const QueryWord& w : words)
    for (const std::string& t : w.terms) {
      const std::string f = FoldCzech(t);
      for (const auto& [name, expansion] : kNames)
        if ((f == name ||
             (f.size() > name.size() && f.starts_with(name) &&
              (f.ends_with("s") || f.ends_with("ing")) && f.size() <= name.size() + 3)) &&
            std::find(out.begin(), out.end(), expansion) == out.end())
          out.emplace_back(expansion);
    }
  return out;
}

bool IsStopWord(std::string_view word) { return StopWords().count(FoldCzech(word)) > 0; }

std::vector<std::string> StopWordsIn(const std::string& query) {
  std::vector<std::string> out;
  for (const std::string& w : RawWords(query))
    if (IsStopWord(w) && std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);
  return out;
}

std::vector<QueryWord> ParseQuery(const std::string& query, const IndexVocabulary* vocab,
                                  bool* too_many) {
  const std::vector<std::string> raw = RawWords(query);
  const bool czech_query = !Ascii(query);  // accented letters: Czech
  std::vector<QueryWord> out;
  std::set<std::string> seen;
  auto push = [&](QueryWord q) {
    if (q.searched.empty()) q.searched = q.word;
    if (seen.insert(q.searched).second) out.push_back(std::move(q));
  };
  // At most kMaxQueryWords words (bounds the work per question): reading stops at the first
  // word past them (a long question, e.g. a pasted position file, is not stemmed and corrected
  // word by word), which says the question is longer than the limit.
  for (size_t i = 0; i < raw.size() && out.size() <= kMaxQueryWords; ++i) {
    const std::string& w = raw[i];
    const std::string f = FoldCzech(w);
    // "not finished" / "not complete(d)" / "not closed" is one word: incomplete.
    if (f == "not" && i + 1 < raw.size() &&
        std::set<std::string>{"finished", "complete", "completed", "closed", "done"}.count(
            raw[i + 1])) {
      QueryWord q{w + " " + raw[i + 1], {"incomplete", "unfinished"}, true};
      q.searched = "incomplete";
      push(std::move(q));
      ++i;
      continue;
    }
    if (IsStopWord(w)) continue;
    QueryWord q{w, {w}};
    if (const Synonyms* s = Lookup(f)) {  // a game word of English
      // A plural the rulings hold only in the singular ("citys"): searched as the singular.
      if (vocab && !vocab->count(f) && f.size() > 4 && f.back() == 's' &&
          vocab->count(f.substr(0, f.size() - 1))) {
        q.terms = {f.substr(0, f.size() - 1)};
        q.searched = q.terms[0];
        q.corrected = true;
      }
      if (s->replace) {
        q.terms.clear();
        q.literal = false;
      }
      AddTerms(q, s->terms);
      push(std::move(q));
      continue;
    }
    // Czech: the dictionary forms (Hunspell), else the word itself when it is a rule term
    // typed without accents ("dopis", "fantom"). An ASCII word of an ASCII question counts as
    // Czech only when it is a Czech rule term ("dopisy" -> dopis), so that English words the
    // rulings lack ("many") are not read as Czech forms.
    const bool known = vocab && InVocabulary(f, *vocab);
    if (!Ascii(w) || czech_query || CzechTerms(f) || !known) {
      std::vector<std::string> lemmas = CzechStems(w);
      if (lemmas.empty() && CzechTerms(f)) lemmas.push_back(f);
      const bool czech = !Ascii(w) || czech_query ||
                         std::any_of(lemmas.begin(), lemmas.end(),
                                     [](const std::string& l) { return CzechTerms(l) != nullptr; });
      if (!lemmas.empty() && czech) {
        if (std::all_of(lemmas.begin(), lemmas.end(), IsCzechStopLemma)) continue;
        q.czech = true;
        q.terms = {lemmas[0]};
        q.searched = lemmas[0];
        for (const std::string& l : lemmas) {
          if (IsCzechStopLemma(l)) continue;
          if (std::find(q.terms.begin(), q.terms.end(), l) == q.terms.end()) q.terms.push_back(l);
          if (const auto* terms = CzechTerms(l)) AddTerms(q, *terms);
        }
        push(std::move(q));
        continue;
      }
    }
    // A plural the rulings hold only in the singular ("citys"): searched as the singular.
    if (vocab && !vocab->count(f) && f.size() > 4 && f.back() == 's' &&
        vocab->count(f.substr(0, f.size() - 1))) {
      q.terms = {f.substr(0, f.size() - 1)};
      q.searched = q.terms[0];
      q.corrected = true;
      push(std::move(q));
      continue;
    }
    // A typo: the nearest word of the rulings, with its synonyms.
    if (vocab && !known) {
      if (std::string c = Correct(f, *vocab); !c.empty()) {
        q.terms = {c};
        q.searched = c;
        q.corrected = true;
        if (const Synonyms* s = Lookup(c)) AddTerms(q, s->terms);
      }
    }
    push(std::move(q));
  }
  if (out.size() > kMaxQueryWords) {
    out.resize(kMaxQueryWords);
    if (too_many) *too_many = true;
  }
  return out;
}

}  // namespace carc::database
