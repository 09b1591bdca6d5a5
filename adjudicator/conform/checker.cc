#include "adjudicator/conform/checker.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <set>

#include "adjudicator/conform/engine.h"
#include "adjudicator/conform/process.h"
#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/registry.h"

namespace carc::adjudicator::conform {

namespace fs = std::filesystem;
using model::Action;
using model::Position;
using nlohmann::json;

namespace {

model::StatusOr<Position> Read(const json& j) {
  auto pos = model::ParsePosition(j, exp::Context("suite"));
  if (!pos.ok()) return pos.status();
  model::ApplyResult pre;
  model::Advance(*pos, pre);
  return pos;
}

std::vector<std::string> ExpansionsOf(const json& position) {
  std::vector<std::string> out;
  for (const json& e : position["rules"].value("expansions", json::array())) out.push_back(e);
  return out;
}

// Adds the legal query for a position, and final scoring when the game is over or at its end.
void AddPositionQueries(const Position& pos, const std::string& source, std::vector<Query>& out) {
  json pj = model::DumpPosition(pos);
  auto exps = ExpansionsOf(pj);
  if (!pos.turn.game_over) out.push_back({"legal", pj, json(), source, exps});
  if (pos.turn.game_over || pos.supply.total() == 0)
    out.push_back({"final_score", pj, json(), source, exps});
}

void FixtureQueries(const fs::path& file, const json& doc, std::vector<Query>& out) {
  json position = doc;
  json question = position.value("question", json());
  position.erase("question");
  position.erase("meta");
  auto pos = Read(position);
  if (!pos.ok() || !model::Validate(*pos).empty()) return;
  const std::string source = file.string();
  AddPositionQueries(*pos, source, out);
  if (!question.is_object() || question.value("ask", "") != "apply") return;
  auto ctx = exp::Context(source);
  for (const json& aj : question.value("actions", json::array())) {
    if (pos->turn.game_over) break;
    auto a = model::ParseAction(aj, *pos, "/question/actions", ctx);
    if (!a.ok()) break;
    json pj = model::DumpPosition(*pos);
    json action = model::DumpAction(*pos, *a);
    model::ApplyResult r = model::Apply(*pos, *a);
    // An action that only makes sense inside an open turn (a second meeple) is not a protocol
    // query: the protocol always runs the turn on to the next decision.
    if (!r.input_error.empty()) break;
    out.push_back({"apply", pj, action, source, ExpansionsOf(pj)});
    if (!r.verdict.legal) break;
    AddPositionQueries(*pos, source, out);
  }
}

json StartPosition(std::mt19937& rng, bool phantom, int players) {
  const auto& cat = model::TileCatalog::Base();
  std::vector<std::string> order;
  for (model::TileType t = 0; t < cat.size(); ++t)
    for (int i = 0; i < cat.def(t).count - (t == cat.start_tile() ? 1 : 0); ++i)
      order.push_back(cat.Name(t));
  std::shuffle(order.begin(), order.end(), rng);
  json j;
  j["rules"] = {{"edition", "C3"}, {"expansions", phantom ? json{"phantom"} : json::array()}};
  j["players"] = json::array();
  for (int p = 0; p < players; ++p) j["players"].push_back({{"name", "P" + std::to_string(p)}});
  j["board"] = {{{"tile", "D"}, {"x", 0}, {"y", 0}, {"rotation", 0}}};
  j["supply"] = {{"draw_order", order}};
  return j;
}

}  // namespace

json Request(const Query& q) {
  json r = {{"cmd", q.kind}, {"position", q.position}};
  if (q.kind == "apply") r["action"] = q.action;
  return r;
}

model::StatusOr<std::vector<Query>> BuildSuite(const SuiteOptions& opts) {
  std::vector<Query> out;
  fs::path dir = fs::path(opts.root) / "fixtures";
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return model::Status(model::ErrorCode::kNoInput,
                         dir.string() + ": no fixtures folder (use --root)");
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir, ec)) {
    std::string n = e.path().filename().string();
    if (n.size() > 14 && n.substr(n.size() - 14) == ".position.json") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    auto doc = model::ReadJsonFile(f.string());
    if (doc.ok() && doc->is_object()) FixtureQueries(f, *doc, out);
  }
  for (int i = 0; i < opts.random; ++i) {
    std::mt19937 rng(opts.seed + static_cast<uint32_t>(i));
    const bool phantom = i % 2 == 1;
    const int players = 2 + static_cast<int>(rng() % 4);
    auto pos = Read(StartPosition(rng, phantom, players));
    if (!pos.ok()) continue;
    const int steps = static_cast<int>(rng() % 120);
    for (int s = 0; s < steps && !pos->turn.game_over; ++s) {
      auto legal = model::LegalActions(*pos);
      if (legal.empty()) break;
      model::Apply(*pos, legal[rng() % legal.size()]);
    }
    const std::string source =
        "random seed " + std::to_string(opts.seed) + " #" + std::to_string(i);
    AddPositionQueries(*pos, source, out);
    auto legal = model::LegalActions(*pos);
    json pj = model::DumpPosition(*pos);
    for (int k = 0; k < 3 && !legal.empty(); ++k)
      out.push_back({"apply", pj, model::DumpAction(*pos, legal[rng() % legal.size()]), source,
                     ExpansionsOf(pj)});
    if (!pos->turn.game_over) out.push_back({"final_score", pj, json(), source, ExpansionsOf(pj)});
  }
  return out;
}

namespace {

// Canonical form of an action list: each action read against the position; rotations that
// give the same picture merged.
std::map<std::string, json> Canonical(const Position& pos, const json& actions,
                                      std::vector<std::string>& unreadable) {
  std::map<std::string, json> out;
  auto ctx = exp::Context("engine");
  if (!actions.is_array()) {
    unreadable.push_back("actions is not an array");
    return out;
  }
  for (const json& aj : actions) {
    auto a = model::ParseAction(aj, pos, "/actions", ctx);
    if (!a.ok()) {
      unreadable.push_back(aj.dump() + ": " + a.status().message());
      continue;
    }
    Action c = *a;
    if (c.type == model::ActionType::kPlaceTile) {
      if (c.tile < 0 && pos.turn.drawn) c.tile = *pos.turn.drawn;
      if (c.tile >= 0) c.rotation = pos.cfg().catalog->canonical_rotation(c.tile, c.rotation);
    }
    json cj = model::DumpAction(pos, c);
    out[cj.dump()] = cj;
  }
  return out;
}

struct Finding {
  bool differs = false;
  std::set<std::string> rulings;
  std::string what;
  json expected, got;
};

std::set<std::string> RulingsOf(const json& answer) {
  std::set<std::string> out;
  for (const json& r : answer.value("rulings", json::array())) out.insert(r.get<std::string>());
  return out;
}

Finding Compare(const Query& q, const json& ref, const json& eng) {
  Finding f;
  f.expected = ref;
  f.got = eng;
  if (!eng.value("ok", false)) {
    f.differs = true;
    f.what = "engine error: " + eng.value("error", std::string("?"));
    f.rulings = RulingsOf(ref);
    return f;
  }
  auto pos = Read(q.position);
  if (!pos.ok()) return f;
  if (q.kind == "legal") {
    std::vector<std::string> bad;
    auto want = Canonical(*pos, ref["actions"], bad);
    auto have = Canonical(*pos, eng.value("actions", json()), bad);
    std::vector<std::string> extra, missing;
    for (auto& [k, a] : have)
      if (!want.count(k)) {
        extra.push_back(k);
        json r = Answer({{"cmd", "apply"}, {"position", q.position}, {"action", a}}, -1);
        auto rs = RulingsOf(r);
        f.rulings.insert(rs.begin(), rs.end());
      }
    for (auto& [k, a] : want)
      if (!have.count(k)) {
        missing.push_back(k);
        json r = Answer({{"cmd", "apply"}, {"position", q.position}, {"action", a}}, -1);
        auto rs = RulingsOf(r);
        f.rulings.insert(rs.begin(), rs.end());
      }
    if (!extra.empty() || !missing.empty() || !bad.empty()) {
      f.differs = true;
      f.what = "legal actions differ";
      f.expected = {{"missing_from_engine", missing}};
      f.got = {{"not_legal_but_listed", extra}, {"unreadable", bad}};
    }
    return f;
  }
  if (q.kind == "apply") {
    bool rl = ref.value("legal", false), el = eng.value("legal", !rl);
    if (rl != el) {
      f.differs = true;
      f.what = std::string("the reference finds the action ") + (rl ? "legal" : "illegal") +
               ", the engine " + (el ? "legal" : "illegal");
      f.rulings = RulingsOf(ref);
      return f;
    }
    if (!rl) return f;
    if (ref["scores"] != eng.value("scores", json())) {
      f.differs = true;
      f.what = "scores after the action differ";
      f.rulings = RulingsOf(ref);
      f.expected = {{"scores", ref["scores"]}, {"score_events", ref.value("score_events", json())}};
      f.got = {{"scores", eng.value("scores", json())}};
      return f;
    }
    auto ep = model::ParsePosition(eng.value("position", json()), exp::Context("engine position"));
    json ej = ep.ok() ? model::DumpPosition(*ep) : json(ep.status().message());
    if (ej != ref["position"]) {
      f.differs = true;
      f.what = "the position after the action differs";
      f.rulings = RulingsOf(ref);
      f.expected = {{"position", ref["position"]}};
      f.got = {{"position", ej}};
    }
    return f;
  }
  if (ref["scores"] != eng.value("scores", json())) {
    f.differs = true;
    f.what = "final scores differ";
    f.rulings = RulingsOf(ref);
    f.expected = {{"scores", ref["scores"]}, {"score_events", ref.value("score_events", json())}};
    f.got = {{"scores", eng.value("scores", json())}};
  }
  return f;
}

bool Intersects(const std::set<std::string>& a, const std::set<std::string>& b) {
  for (const auto& x : a)
    if (b.count(x)) return true;
  return false;
}

class Session {
 public:
  Session(EngineProcess& e, const std::set<std::string>& deviations)
      : engine_(e), deviations_(deviations) {}
  model::StatusOr<Finding> Run(const Query& q) {
    json req = Request(q);
    req["id"] = ++id_;
    json ref = Answer(req, -1);
    auto eng = engine_.Ask(req);
    if (!eng.ok()) return eng.status();
    return Compare(q, ref, *eng);
  }
  // Removes tiles and figures while a disagreement involving the same rulings remains.
  model::StatusOr<Query> Shrink(Query q, const std::set<std::string>& rulings, int budget) {
    bool progress = true;
    while (progress && budget > 0) {
      progress = false;
      json& p = q.position;
      const int n_fig = static_cast<int>(p["figures"].size());
      for (int i = n_fig - 1; i >= 0 && budget > 0; --i) {
        Query c = q;
        json fig = c.position["figures"][i];
        c.position["figures"].erase(i);
        auto& sup = c.position["players"][fig["owner"].get<int>()]["supply"]
                              [fig["kind"].get<std::string>()];
        sup = sup.get<int>() + 1;
        if (Try(c, rulings, budget)) {
          q = c;
          progress = true;
          break;
        }
      }
      if (progress) continue;
      const int n_tiles = static_cast<int>(p["board"].size());
      for (int i = n_tiles - 1; i >= 1 && budget > 0; --i) {
        Query c = q;
        json tile = c.position["board"][i];
        c.position["board"].erase(i);
        json figs = json::array();
        bool drop = false;
        for (const json& fg : c.position["figures"]) {
          if (fg["x"] == tile["x"] && fg["y"] == tile["y"]) {
            auto& sup = c.position["players"][fg["owner"].get<int>()]["supply"]
                                  [fg["kind"].get<std::string>()];
            sup = sup.get<int>() + 1;
          } else {
            figs.push_back(fg);
          }
        }
        c.position["figures"] = figs;
        if (json placed = c.position["turn"].value("placed", json());
            placed.is_object() && placed["x"] == tile["x"] && placed["y"] == tile["y"])
          drop = true;
        if (!drop && Try(c, rulings, budget)) {
          q = c;
          progress = true;
          break;
        }
      }
    }
    return q;
  }

 private:
  bool Try(const Query& c, const std::set<std::string>& rulings, int& budget) {
    --budget;
    auto pos = Read(c.position);
    if (!pos.ok() || !model::Validate(*pos).empty()) return false;
    if (c.kind == "apply") {
      auto a = model::ParseAction(c.action, *pos, "/action", exp::Context("shrink"));
      if (!a.ok()) return false;
    }
    auto f = Run(c);
    return f.ok() && f->differs && Intersects(f->rulings, rulings);
  }
  EngineProcess& engine_;
  const std::set<std::string>& deviations_;
  int id_ = 0;
};

}  // namespace

Report Check(const std::vector<Query>& suite, const CheckOptions& opts) {
  Report rep;
  EngineProcess engine;
  auto fail = [&](const std::string& msg) {
    rep.exit_code = 74;
    rep.json["error"] = msg;
    return rep;
  };
  if (auto s = engine.Start(opts.engine, opts.timeout); !s.ok()) return fail(s.message());
  auto hello = engine.Ask({{"id", 0}, {"cmd", "hello"}, {"protocol", kProtocolVersion}});
  if (!hello.ok()) return fail(hello.status().message());
  if (!hello->value("ok", false) || hello->value("protocol", 0) != kProtocolVersion)
    return fail("engine did not accept protocol " + std::to_string(kProtocolVersion) + ": " +
                hello->dump());
  std::set<std::string> supported, deviations;
  for (const json& e : hello->value("expansions", json::array()))
    supported.insert(e.get<std::string>());
  std::map<std::string, std::string> deviation_reason;
  for (const json& d : hello->value("deviations", json::array())) {
    deviations.insert(d.value("ruling", ""));
    deviation_reason[d.value("ruling", "")] = d.value("reason", "");
  }
  rep.json["engine"] = hello->value("name", opts.engine);
  Session session(engine, deviations);
  json disagreements = json::array(), deviated = json::array();
  std::map<std::string, std::pair<int, int>> per_exp;  // checked, disagreements
  std::map<std::string, int> per_ruling;
  int checked = 0, skipped = 0;
  auto last = std::chrono::steady_clock::now();
  for (size_t i = 0; i < suite.size(); ++i) {
    const Query& q = suite[i];
    bool ok = std::all_of(q.expansions.begin(), q.expansions.end(),
                          [&](const std::string& e) { return supported.count(e) > 0; });
    if (!ok) {
      ++skipped;
      continue;
    }
    std::string group = q.expansions.empty() ? "base" : q.expansions.front();
    for (size_t k = 1; k < q.expansions.size(); ++k) group += "+" + q.expansions[k];
    auto f = session.Run(q);
    if (!f.ok()) return fail(f.status().message() + " (query from " + q.source + ")");
    ++checked;
    per_exp[group].first++;
    if (f->differs) {
      bool is_dev = Intersects(f->rulings, deviations);
      auto shrunk = session.Shrink(q, f->rulings, opts.max_shrink_steps);
      if (!shrunk.ok()) return fail(shrunk.status().message());
      auto fs = session.Run(*shrunk);
      Finding final = fs.ok() ? *fs : *f;
      json d = {{"kind", q.kind},
                {"source", q.source},
                {"what", final.what},
                {"rulings", final.rulings},
                {"expected", final.expected},
                {"engine", final.got},
                {"tiles", shrunk->position["board"].size()},
                {"position", shrunk->position}};
      if (q.kind == "apply") d["action"] = shrunk->action;
      if (is_dev) {
        json reasons = json::array();
        for (const auto& r : f->rulings)
          if (deviations.count(r))
            reasons.push_back({{"ruling", r}, {"reason", deviation_reason[r]}});
        d["declared_deviation"] = reasons;
        deviated.push_back(d);
      } else {
        disagreements.push_back(d);
        per_exp[group].second++;
        for (const auto& r : final.rulings) per_ruling[r]++;
      }
    }
    if (opts.progress && std::chrono::steady_clock::now() - last > std::chrono::seconds(1)) {
      last = std::chrono::steady_clock::now();
      std::cerr << "\rconform: " << i + 1 << "/" << suite.size() << " queries, "
                << disagreements.size() << " disagreements" << std::flush;
    }
  }
  if (opts.progress) std::cerr << "\n";
  engine.Ask({{"id", 999999999}, {"cmd", "quit"}});
  json summary = {{"queries", suite.size()},
                  {"checked", checked},
                  {"skipped", skipped},
                  {"disagreements", disagreements.size()},
                  {"deviations", deviated.size()}};
  for (auto& [g, c] : per_exp)
    summary["per_expansion"][g] = {{"checked", c.first}, {"disagreements", c.second}};
  for (auto& [r, n] : per_ruling) summary["per_ruling"][r] = n;
  rep.json["summary"] = summary;
  rep.json["disagreements"] = disagreements;
  rep.json["declared_deviations"] = deviated;
  rep.exit_code = disagreements.empty() ? 0 : 1;
  return rep;
}

std::string ReportText(const json& r) {
  std::string out;
  if (r.contains("error"))
    return "conform: engine failure: " + r["error"].get<std::string>() + "\n";
  const json& s = r["summary"];
  out += "engine: " + r.value("engine", std::string("?")) + "\n";
  for (const json& d : r["disagreements"]) {
    out += "DISAGREE " + d["kind"].get<std::string>() + " (" + d["source"].get<std::string>() +
           "): " + d["what"].get<std::string>() + "\n  rulings: " + d["rulings"].dump() +
           "\n  shrunk to " + std::to_string(d["tiles"].get<size_t>()) +
           " tiles: " + d["position"].dump() + "\n";
    if (d.contains("action")) out += "  action: " + d["action"].dump() + "\n";
    out += "  reference: " + d["expected"].dump().substr(0, 600) +
           "\n  engine:    " + d["engine"].dump().substr(0, 600) + "\n";
  }
  for (const json& d : r["declared_deviations"])
    out +=
        "deviation (declared) " + d["kind"].get<std::string>() + " " + d["rulings"].dump() + "\n";
  if (s.contains("per_expansion"))
    for (auto it = s["per_expansion"].begin(); it != s["per_expansion"].end(); ++it)
      out += "  " + it.key() + ": " + std::to_string(it.value()["checked"].get<int>()) +
             " checked, " + std::to_string(it.value()["disagreements"].get<int>()) +
             " disagreements\n";
  if (s.contains("per_ruling"))
    for (auto it = s["per_ruling"].begin(); it != s["per_ruling"].end(); ++it)
      out += "  ruling " + it.key() + ": " + std::to_string(it.value().get<int>()) + "\n";
  out += std::to_string(s["checked"].get<int>()) + " queries checked, " +
         std::to_string(s["skipped"].get<int>()) + " skipped, " +
         std::to_string(s["disagreements"].get<size_t>()) + " disagreements, " +
         std::to_string(s["deviations"].get<size_t>()) + " declared deviations\n";
  return out;
}

model::Status ExportSuite(const std::vector<Query>& suite, const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return model::Status(model::ErrorCode::kIo, dir + ": cannot create: " + ec.message());
  for (size_t i = 0; i < suite.size(); ++i) {
    const Query& q = suite[i];
    char name[32];
    std::snprintf(name, sizeof name, "%05zu_%s", i, q.kind.c_str());
    json pos = q.position;
    pos["meta"] = {{"id", name}, {"source", q.source}};
    if (q.kind == "apply")
      pos["question"] = {{"ask", "apply"}, {"actions", json::array({q.action})}};
    else
      pos["question"] = {{"ask", q.kind}};
    json ans = Answer(Request(q), -1);
    ans.erase("id");
    std::ofstream(fs::path(dir) / (std::string(name) + ".position.json")) << pos.dump(2) << "\n";
    std::ofstream out(fs::path(dir) / (std::string(name) + ".expected.json"));
    out << ans.dump(2) << "\n";
    if (!out) return model::Status(model::ErrorCode::kIo, dir + ": cannot write " + name);
  }
  std::ofstream(fs::path(dir) / "README.md")
      << "# Carcassonne conformance suite (exported by `carc conform export`)\n\n"
         "Each NNNNN_<kind>.position.json is a position file (see POSITION_FORMAT.md of the carc "
         "project) whose `question` is the query; NNNNN_<kind>.expected.json is the reference "
         "model's answer in the conformance protocol's form:\n"
         "- `legal`: `actions`, every legal action (compare as a set; rotations giving the same "
         "picture count once);\n"
         "- `apply`: `legal`, and when legal the `scores` and resulting `position` (after running "
         "on to the next decision);\n"
         "- `final_score`: `scores`.\n"
         "`rulings` lists the ruling IDs behind the answer.\n";
  return model::Status::Ok();
}

}  // namespace carc::adjudicator::conform
