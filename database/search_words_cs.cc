// Czech words of a question (search_words.h): their dictionary forms from Hunspell's Czech
// dictionary (Debian's hunspell-cs, found at build time, database/CMakeLists.txt), and the
// English words the rulings use for the rule terms of the Czech pages (../shared/seeds).
#include <algorithm>
#include <hunspell/hunspell.hxx>
#include <memory>
#include <mutex>
#include <set>
#include <unordered_map>

#include "database/search_words.h"

#ifndef CARC_HUNSPELL_CS
#error "CARC_HUNSPELL_CS (the Czech dictionary without .aff/.dic) is set by database/CMakeLists.txt"
#endif

namespace carc::database {

namespace {

// Loaded once, on the first Czech word (about a second: an English question never pays it).
Hunspell* Dictionary() {
  static std::once_flag once;
  static std::unique_ptr<Hunspell> dict;
  std::call_once(once, [] {
    const std::string base = CARC_HUNSPELL_CS;
    if (FILE* f = std::fopen((base + ".dic").c_str(), "r")) {
      std::fclose(f);
      dict = std::make_unique<Hunspell>((base + ".aff").c_str(), (base + ".dic").c_str());
    }
  });
  return dict.get();
}

// The rule terms of the Czech pages (folded dictionary forms) and the words the rulings use
// for them. The Czech pages: družiník = meeple, fantom / družina = Phantom, dopis = message,
// dáma = dame, dárek = gift, kartička = tile, karta = card, koncil = synod, ...
const std::unordered_map<std::string, std::vector<std::string_view>>& Terms() {
  static const std::unordered_map<std::string, std::vector<std::string_view>> t = {
      // Figures.
      {"druzinik", {"meeple", "figure"}},
      {"panacek", {"meeple", "figure"}},
      {"figurka", {"figure", "meeple"}},
      {"fantom", {"phantom"}},
      {"druzina", {"phantom"}},
      {"normalni", {"normal", "regular"}},
      {"obycejny", {"normal", "regular"}},
      {"zakladni", {"normal", "base"}},
      {"rytir", {"knight", "city"}},
      {"lupic", {"thief", "road"}},
      {"sedlak", {"farmer", "field"}},
      {"rolnik", {"farmer", "field"}},
      {"mnich", {"monk", "monastery"}},
      {"stavitel", {"builder"}},
      {"prasatko", {"pig"}},
      {"dama", {"dame"}},
      {"pocitadlo", {"scoring track", "dark space"}},
      {"pocitaci", {"scoring meeple", "scoring figure"}},
      // Features and material.
      {"klaster", {"monastery"}},
      {"cesta", {"road"}},
      {"mesto", {"city"}},
      {"louka", {"field"}},
      {"uzemi", {"feature"}},
      {"erb", {"coat of arms"}},
      {"karticka", {"tile"}},
      {"dilek", {"tile"}},
      {"karta", {"card"}},
      {"balicek", {"deck", "pile"}},
      {"hromadka", {"pile", "discard"}},
      {"odhazovaci", {"discard"}},
      {"odkladaci", {"discard"}},
      {"odhodit", {"discard"}},
      {"ruka", {"hand"}},
      {"smycka", {"loop"}},
      {"blesk", {"lightning"}},
      {"roh", {"corner", "orthogonally"}},
      {"policko", {"space"}},
      {"pole", {"space"}},
      {"tmavy", {"dark space", "dark"}},
      // The Messengers.
      {"dopis", {"message"}},
      {"akce", {"action", "carry out"}},
      {"provest", {"carry out"}},
      {"secist", {"sum", "add"}},
      {"soucet", {"sum"}},
      // The Gifts.
      {"darek", {"gift"}},
      {"koncil", {"synod"}},
      {"vyklizeni", {"road sweeper"}},
      {"vyklidit", {"road sweeper"}},
      {"postoj", {"change position", "posture"}},
      {"vyplaceni", {"cash out"}},
      {"vyplatit", {"cash out"}},
      {"vyber", {"take 2"}},
      {"neotevreny", {"unopened"}},
      {"otevrit", {"open"}},
      {"rozsirit", {"extend", "extends"}},
      // Christmas Present.
      {"vanocni", {"christmas present"}},
      {"zruseni", {"cancel"}},
      {"zrusit", {"cancel"}},
      {"utok", {"attack"}},
      {"vymenit", {"swap"}},
      {"prinutit", {"force"}},
      {"remiza", {"tie", "tied", "cancel"}},
      {"vyhoda", {"advantage"}},
      // Scoring and the game.
      {"bod", {"points", "score"}},
      {"hodnoceni", {"scoring", "score"}},
      {"vyhodnoceni", {"scoring", "final scoring"}},
      {"zapocitani", {"scoring"}},
      {"bodovat", {"score", "scored"}},
      {"zaverecny", {"final", "game end"}},
      {"konec", {"end", "game end"}},
      {"prevaha", {"majority"}},
      {"stejne", {"tied", "same"}},
      {"stejny", {"same", "tied"}},
      {"dokonceny", {"completed"}},
      {"dokoncit", {"complete", "completed"}},
      {"uzavreny", {"completed"}},
      {"nedokonceny", {"incomplete", "unfinished"}},
      {"neuzavreny", {"incomplete", "unfinished"}},
      {"nedokoncit", {"incomplete", "unfinished"}},
      {"zasoba", {"supply"}},
      {"vratit", {"return", "returns"}},
      {"vratit se", {"return"}},
      {"zpet", {"return", "back"}},
      {"znovu", {"again", "reuse"}},
      {"stahnout", {"take back", "remove"}},
      {"stazeni", {"take back", "remove"}},
      {"presunout", {"move"}},
      {"posunout", {"advance", "move"}},
      {"prilozit", {"place", "placed"}},
      {"umistit", {"place", "placed"}},
      {"polozit", {"place", "alone"}},
      {"sam", {"alone"}},
      {"samostatne", {"alone"}},
      {"nejdu", {"unplaceable", "fits nowhere"}},
      {"nikam", {"nowhere", "unplaceable"}},
      {"zamichat", {"shuffle", "reshuffle"}},
      {"dojdu", {"empty", "runs out", "no tiles left"}},
      {"dojit", {"empty", "runs out"}},
      {"nezbyvat", {"no tiles left", "empty"}},
      {"souper", {"opponent", "another player"}},
      {"protihrac", {"opponent", "another player"}},
      {"jiny", {"another", "other"}},
      {"tah", {"turn"}},
      {"navic", {"extra"}},
      {"cely", {"full", "whole"}},
      {"dva", {"two"}},
      {"obe", {"both", "two"}},
      {"oba", {"both", "two"}},
      {"druhy", {"second"}},
      {"kazdy", {"each", "per"}},
      {"ziskat", {"get", "receive"}},
      {"dostat", {"get", "receive"}},
      {"vzit", {"take", "draw"}},
      {"brat", {"take", "draw", "receive"}},
      {"dobrat", {"draw"}},
      {"tahnout", {"draw"}},
      {"vedle", {"next to", "adjacent"}},
      {"sousedit", {"adjacent", "next to"}},
      {"pouzit", {"use", "used"}},
      {"zahrat", {"play", "use"}},
      {"maximalne", {"at most"}},
  };
  return t;
}

// Dictionary forms that carry no meaning in a question (be, have, can, this, ...).
const std::set<std::string>& StopLemmas() {
  static const std::set<std::string> s = {
      "byt",  "mit",   "moci",   "muset",  "smet",  "chtit", "ten",  "tento", "ktery", "co",
      "kdy",  "jak",   "kdyz",   "jen",    "tak",   "take",  "uz",   "jeste", "se",    "si",
      "ja",   "ty",    "on",     "ona",    "ono",   "my",    "vy",   "muj",   "svuj",  "tvuj",
      "nas",  "kolik", "kolika", "nejaky", "ci",    "li",    "pak",  "potom", "az",    "jiz",
      "ani",  "aby",   "ale",    "i",      "a",     "nebo",  "ze",   "do",    "na",    "v",
      "ve",   "z",     "za",     "o",      "u",     "k",     "ke",   "s",     "pro",   "pri",
      "po",   "od",    "pred",   "pod",    "nad",   "mezi",  "bez",  "tam",   "tady",  "zde",
      "kde",  "proc",  "jestli", "jenom",  "treba", "to",    "ta",   "lze",   "jit",   "jdu",
      "stat", "nebyt", "nemit",  "nemoci", "vec",   "nic",   "neco", "kdo",   "jakoby"};
  return s;
}

}  // namespace

const std::vector<std::string_view>* CzechTerms(const std::string& lemma) {
  auto it = Terms().find(lemma);
  return it == Terms().end() ? nullptr : &it->second;
}

bool IsCzechStopLemma(const std::string& lemma) { return StopLemmas().count(lemma) > 0; }

bool CzechDictionaryLoaded() { return Dictionary() != nullptr; }

std::vector<std::string> CzechStems(std::string_view word) {
  std::vector<std::string> out;
  if (word.size() > 64) return out;
  Hunspell* dict = Dictionary();
  if (!dict) return out;
  const std::string w(word);
  const std::string folded = FoldCzech(w);
  for (const std::string& stem : dict->stem(w)) {
    std::string f = FoldCzech(stem);
    // A negated form ("nedokončený", "nejde") keeps its "ne": it says the opposite.
    if (folded.starts_with("ne") && !f.starts_with("ne")) f = "ne" + f;
    if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
  }
  // A rule term first ("poli" -> pole, not the name Poli).
  std::stable_partition(out.begin(), out.end(),
                        [](const std::string& l) { return Terms().count(l) > 0; });
  return out;
}

std::string CzechIndexText(std::string_view text) {
  std::string out, cur;
  auto flush = [&] {
    if (cur.empty()) return;
    std::vector<std::string> lemmas = CzechStems(cur);
    const std::string f = lemmas.empty() ? FoldCzech(cur) : lemmas[0];
    if (!IsStopWord(cur) && !IsCzechStopLemma(f)) out += (out.empty() ? "" : " ") + f;
    cur.clear();
  };
  for (unsigned char ch : text) {
    if (std::isalnum(ch) || ch >= 0x80)
      cur.push_back(static_cast<char>(ch));
    else
      flush();
  }
  flush();
  return out;
}

}  // namespace carc::database
