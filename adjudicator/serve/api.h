#pragma once
// The JSON API of `carc serve`, without the HTTP: each request is (method, path, query, body)
// -> (status, content type, body), so tests can call it directly. Every answer comes from the
// functions the CLI uses (the adjudicator's RunJson, model/render, database/): no second rules
// path. Errors are JSON {"error": the CLI's message, "exit_code": the CLI's exit code}.

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "adjudicator/adjudicate.h"
#include "database/db.h"
#include "database/games_store.h"
#include "database/search_words.h"

namespace carc::serve {

// The adjudicator entry point (adjudicator::RunJson), passed in by cmd_serve.cc.
using RunFn = std::function<adjudicator::Outcome(
    const nlohmann::json& doc, const std::string& source, const adjudicator::Options& opts)>;

struct Response {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
};

struct ApiOptions {
  RunFn run;
  std::string db_path;      // empty: no database file (see root)
  std::string root;         // source tree: rulings are built into memory when there is no file
  int max_perft_depth = 2;  // a deeper count from the page would not answer quickly
};

class Api {
 public:
  // Opens the database read-only, or builds the rulings into memory from `root` when
  // `db_path` is empty or missing. Errors: the database's own message (exit 74 / 65).
  static model::StatusOr<std::unique_ptr<Api>> Create(const ApiOptions& opts);

  Response Handle(const std::string& method, const std::string& path,
                  const std::map<std::string, std::string>& query, const std::string& body);

  // Says where the rulings come from ("carc.db", or "built in memory from <root>").
  const std::string& db_description() const { return db_description_; }

 private:
  explicit Api(ApiOptions opts) : opts_(std::move(opts)) {}
  Response Run(const std::string& body, adjudicator::Mode mode, int depth,
               bool depth_stated = true);
  Response Render(const std::string& body);
  Response Fit(const std::string& body);
  Response Search(const std::map<std::string, std::string>& query);
  Response Ruling(const std::string& id);
  Response Fixture(const std::map<std::string, std::string>& query);
  Response Games();
  Response Game(const std::string& id);
  Response GameTurn(const std::string& id, const std::string& turn);
  model::StatusOr<std::optional<database::StoredGame>> FetchGame(const std::string& id);

  ApiOptions opts_;
  // The SQLite connection (opened NOMUTEX) answers one query at a time; the model needs no lock
  // (requests are answered side by side, each on its own server thread).
  std::mutex db_mu_;
  std::optional<database::Connection> db_;
  std::string db_description_;
  bool db_has_games_ = false;
  // The rulings' words for typo correction, read once: the database does not change while
  // served, and reading them was most of a search's work.
  // Unset when they cannot be read (a database without the index): each search then reads
  // them itself and answers its error.
  std::optional<database::IndexVocabulary> vocab_;
};

// The tile art of every base tile at every rotation, as the page draws it (model/render's
// DescribeTile, the same shapes `carc render` draws), with each feature's name and anchor.
nlohmann::json TilesJson();
// The disputed rulings every registered module declares, for the page's variant forms:
// {"<module id>": [{"ruling": "<RULING-ID>", "readings": [adopted, others...]}, ...]}.
// Part of TilesJson (/api/tiles) as "variants".
nlohmann::json VariantsJson();

}  // namespace carc::serve
