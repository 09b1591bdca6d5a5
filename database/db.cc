#include "database/db.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <utility>

namespace carc::database {

namespace {

Status IoError(std::string message) { return Status(model::ErrorCode::kIo, std::move(message)); }

// Words for a result code; `doing` says what was being done ("importing games").
std::string Describe(int rc, const std::string& path, std::string_view doing, int timeout_ms,
                     const char* sqlite_msg) {
  std::string what;
  switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      what = "database is locked by another connection (waited " + std::to_string(timeout_ms) +
             " ms); try again when its write has finished";
      break;
    case SQLITE_READONLY:
      what = "database is read-only (no write permission on the file or its folder)";
      break;
    case SQLITE_CANTOPEN:
      what = "cannot open the database file (missing folder, or no permission)";
      break;
    case SQLITE_NOTADB:
      what =
          "not a database file (not SQLite, or its header is damaged); move it aside and run "
          "`carc db build` for a new one";
      break;
    case SQLITE_CORRUPT:
      what =
          "the database file is corrupt; restore a copy, or move it aside and run `carc db "
          "build` for a new one";
      break;
    case SQLITE_FULL:
      what = "disk full";
      break;
    case SQLITE_IOERR:
      what = "I/O error reading or writing the database file";
      break;
    default:
      what = sqlite_msg ? sqlite_msg : sqlite3_errstr(rc);
      return path + ": " + what + (doing.empty() ? "" : " (" + std::string(doing) + ")");
  }
  std::string out = path + ": " + what;
  if (!doing.empty()) out += " (while " + std::string(doing) + ")";
  return out;
}

// "file:" URI of a path, for sqlite3_open_v2 with SQLITE_OPEN_URI. Leading slashes are folded
// into one: "file://x/db" would name the host x (a path starting with // broke the URI).
std::string FileUri(const std::string& path, const char* query) {
  std::string out = "file:";
  size_t start = 0;
  while (path.size() > start + 1 && path[start] == '/' && path[start + 1] == '/') ++start;
  if (start < path.size() && path[start] == '/') out += "//";  // file:///abs/path
  for (char ch : path.substr(start)) {
    if (ch == '%' || ch == '?' || ch == '#') {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", static_cast<unsigned char>(ch));
      out += buf;
    } else {
      out += ch;
    }
  }
  return out + query;
}

bool FolderWritable(const std::string& path) {
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  return access(dir.empty() ? "." : dir.c_str(), W_OK) == 0;
}

}  // namespace

// ---- Connection ----

StatusOr<Connection> Connection::Open(const std::string& path, const OpenOptions& opts) {
  std::error_code ec;
  // An empty name would open a private in-memory database and lose every write.
  if (path.empty())
    return Status(model::ErrorCode::kUsage,
                  "empty database path (--db \"\"): name a database file");
  const bool memory = path == ":memory:";
  const bool must_exist = opts.mode != OpenMode::kCreate;
  if (!memory && must_exist && !std::filesystem::exists(path, ec))
    return IoError(path + ": no such database file (create it with `carc db build --db " + path +
                   "`)");
  if (!memory && std::filesystem::is_directory(path, ec))
    return IoError(path + ": is a folder, not a database file");
  // SQLite would open a FIFO and wait for a writer for ever; a device or socket is no database.
  struct stat st {};
  const bool stated = !memory && stat(path.c_str(), &st) == 0;
  if (stated && !S_ISREG(st.st_mode))
    return IoError(path + ": not a regular file (a FIFO, device or socket): name a database file");
  Connection c;
  c.path_ = path;
  c.busy_timeout_ms_ = opts.busy_timeout_ms;
  int flags = SQLITE_OPEN_NOMUTEX;
  flags |= opts.mode == OpenMode::kReadOnly    ? SQLITE_OPEN_READONLY
           : opts.mode == OpenMode::kReadWrite ? SQLITE_OPEN_READWRITE
                                               : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  // Read-only, a file nobody writes (no write permission bit, or none for this user): opened
  // immutable. A plain read-only open of a WAL file creates -shm and -wal next to it and, unable
  // to checkpoint, leaves them behind. Not when a -wal holds changes: immutable would miss them.
  std::string name = path;
  if (opts.mode == OpenMode::kReadOnly && stated &&
      ((st.st_mode & 0222) == 0 || access(path.c_str(), W_OK) != 0) &&
      !(std::filesystem::file_size(path + "-wal", ec) > 0 && !ec)) {
    name = FileUri(path, "?immutable=1");
    flags |= SQLITE_OPEN_URI;
  }
  ec.clear();
  int rc = sqlite3_open_v2(name.c_str(), &c.db_, flags, nullptr);
  if (rc != SQLITE_OK) return c.Error(rc, "opening");
  sqlite3_extended_result_codes(c.db_, 1);
  sqlite3_busy_timeout(c.db_, opts.busy_timeout_ms);
  if (opts.mode != OpenMode::kReadOnly && sqlite3_db_readonly(c.db_, "main") == 1)
    return c.Error(SQLITE_READONLY, "opening for writing");
  // Reading the header here makes a garbage file fail now, with its own message.
  auto app = c.Prepare("PRAGMA application_id");
  if (!app.ok()) return app.status();
  auto row = app->Step();
  const int first_rc = sqlite3_extended_errcode(c.db_) & 0xff;
  if (!row.ok() && opts.mode == OpenMode::kReadOnly && !memory &&
      (first_rc == SQLITE_READONLY || first_rc == SQLITE_CANTOPEN) && !FolderWritable(path)) {
    // A WAL file in a folder nobody may write to (an installed copy): without its -shm file
    // SQLite can read it only as immutable, which is what such a file is. Immutable ignores the
    // -wal file, so one that still holds commits would give stale reads: refused.
    if (std::filesystem::file_size(path + "-wal", ec) > 0 && !ec &&
        !std::filesystem::exists(path + "-shm", ec))
      return IoError(path + ": its write-ahead log " + path + "-wal holds changes but " + path +
                     "-shm is missing, in a folder this user cannot write: reading would miss "
                     "them; open it once with write access to the folder, or copy the folder");
    ec.clear();
    app = Statement();
    sqlite3_close_v2(c.db_);
    c.db_ = nullptr;
    rc = sqlite3_open_v2(FileUri(path, "?immutable=1").c_str(), &c.db_,
                         SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) return c.Error(rc, "opening");
    sqlite3_extended_result_codes(c.db_, 1);
    app = c.Prepare("PRAGMA application_id");
    if (!app.ok()) return app.status();
    row = app->Step();
  }
  if (!row.ok()) return row.status();
  const int64_t app_id = *row ? app->Int(0) : 0;
  app = Statement();
  if (app_id != kApplicationId) {
    auto n = c.Prepare("SELECT count(*) FROM sqlite_schema");
    if (!n.ok()) return n.status();
    auto r = n->Step();
    if (!r.ok()) return r.status();
    const bool empty = n->Int(0) == 0;
    if (!empty || must_exist)
      return IoError(path + ": not a carc database (SQLite file with application_id " +
                     std::to_string(app_id) + "); create one with `carc db build --db FILE`");
  }
  if (Status s = c.Exec("PRAGMA foreign_keys = ON"); !s.ok()) return s;
  if (opts.mode == OpenMode::kCreate && !memory && app_id == kApplicationId) {
    // Before any write: a damaged file accepted imports without complaint.
    if (Status s = CheckBeforeWrite(c); !s.ok()) return s;
  }
  if (opts.mode == OpenMode::kCreate && !memory) {
    // WAL: readers keep reading while an import writes. NORMAL sync is safe in WAL against a
    // killed process (a commit is never half applied); only a power cut can lose the last one.
    if (Status s = c.Exec("PRAGMA journal_mode = WAL"); !s.ok()) return s;
    c.wal_ = true;
    if (Status s = c.Exec("PRAGMA synchronous = NORMAL"); !s.ok()) return s;
  }
  return c;
}

Connection::Connection(Connection&& o) noexcept
    : db_(std::exchange(o.db_, nullptr)),
      path_(std::move(o.path_)),
      busy_timeout_ms_(o.busy_timeout_ms_),
      wal_(std::exchange(o.wal_, false)) {}

Connection& Connection::operator=(Connection&& o) noexcept {
  if (this != &o) {
    if (db_) sqlite3_close_v2(db_);
    db_ = std::exchange(o.db_, nullptr);
    path_ = std::move(o.path_);
    busy_timeout_ms_ = o.busy_timeout_ms_;
    wal_ = std::exchange(o.wal_, false);
  }
  return *this;
}

Connection::~Connection() {
  if (!db_) return;
  // A writer leaves the file in rollback-journal mode, so that read-only commands on it
  // (`rulings search`, `serve`) create no -wal/-shm next to it, which a read-only connection
  // could not remove on closing. Best effort: while another connection reads, the switch is
  // refused (busy) and the file stays in WAL until the next writer closes last.
  if (wal_) {
    sqlite3_busy_timeout(db_, 0);
    sqlite3_exec(db_, "PRAGMA journal_mode = DELETE", nullptr, nullptr, nullptr);
  }
  sqlite3_close_v2(db_);
}

Status Connection::Exec(std::string_view sql) {
  std::string text(sql);
  char* err = nullptr;
  int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &err);
  sqlite3_free(err);
  if (rc != SQLITE_OK) return Error(rc, "");
  return Status::Ok();
}

StatusOr<Statement> Connection::Prepare(std::string_view sql) {
  sqlite3_stmt* s = nullptr;
  int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &s, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(s);
    return Error(rc, "");
  }
  return Statement(this, s);
}

int64_t Connection::LastInsertRowid() const { return sqlite3_last_insert_rowid(db_); }

Status Connection::Error(int rc, std::string_view doing) const {
  const char* msg = db_ ? sqlite3_errmsg(db_) : nullptr;
  return IoError(Describe(rc, path_.empty() ? ":memory:" : path_, doing, busy_timeout_ms_, msg));
}

// ---- Statement ----

Statement::Statement(Statement&& o) noexcept
    : conn_(o.conn_), stmt_(std::exchange(o.stmt_, nullptr)), bind_rc_(o.bind_rc_) {}

Statement& Statement::operator=(Statement&& o) noexcept {
  if (this != &o) {
    if (stmt_) sqlite3_finalize(stmt_);
    conn_ = o.conn_;
    stmt_ = std::exchange(o.stmt_, nullptr);
    bind_rc_ = o.bind_rc_;
  }
  return *this;
}

Statement::~Statement() {
  if (stmt_) sqlite3_finalize(stmt_);
}

Statement& Statement::Bind(int i, int64_t v) {
  int rc = sqlite3_bind_int64(stmt_, i, v);
  if (rc != SQLITE_OK && bind_rc_ == SQLITE_OK) bind_rc_ = rc;
  return *this;
}

Statement& Statement::Bind(int i, std::string_view v) {
  int rc = sqlite3_bind_text64(stmt_, i, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  if (rc != SQLITE_OK && bind_rc_ == SQLITE_OK) bind_rc_ = rc;
  return *this;
}

Statement& Statement::BindNull(int i) {
  int rc = sqlite3_bind_null(stmt_, i);
  if (rc != SQLITE_OK && bind_rc_ == SQLITE_OK) bind_rc_ = rc;
  return *this;
}

StatusOr<bool> Statement::Step() {
  if (bind_rc_ != SQLITE_OK) return conn_->Error(bind_rc_, "binding a parameter");
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  Status s = conn_->Error(rc, "");
  sqlite3_reset(stmt_);
  return s;
}

Status Statement::Run() {
  for (;;) {
    auto r = Step();
    if (!r.ok()) return r.status();
    if (!*r) break;
  }
  Reset();
  return Status::Ok();
}

void Statement::Reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
  bind_rc_ = SQLITE_OK;
}

int64_t Statement::Int(int col) const { return sqlite3_column_int64(stmt_, col); }
double Statement::Real(int col) const { return sqlite3_column_double(stmt_, col); }
bool Statement::IsNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

std::string Statement::Text(int col) const {
  const unsigned char* t = sqlite3_column_text(stmt_, col);
  return t ? std::string(reinterpret_cast<const char*>(t),
                         static_cast<size_t>(sqlite3_column_bytes(stmt_, col)))
           : std::string();
}

std::optional<std::string> Statement::OptText(int col) const {
  if (IsNull(col)) return std::nullopt;
  return Text(col);
}

std::optional<int64_t> Statement::OptInt(int col) const {
  if (IsNull(col)) return std::nullopt;
  return Int(col);
}

// ---- Transaction, Savepoint ----

StatusOr<Transaction> Transaction::Begin(Connection& conn) {
  if (Status s = conn.Exec("BEGIN IMMEDIATE"); !s.ok()) return s;
  return Transaction(&conn);
}

Transaction::~Transaction() {
  if (conn_) conn_->Exec("ROLLBACK");
}

Status Transaction::Commit() {
  Status s = conn_->Exec("COMMIT");
  if (s.ok()) conn_ = nullptr;
  return s;
}

StatusOr<Savepoint> Savepoint::Begin(Connection& conn) {
  if (Status s = conn.Exec("SAVEPOINT record"); !s.ok()) return s;
  return Savepoint(&conn);
}

Savepoint::~Savepoint() {
  if (conn_) {
    conn_->Exec("ROLLBACK TO record");
    conn_->Exec("RELEASE record");
  }
}

Status Savepoint::Release() {
  Status s = conn_->Exec("RELEASE record");
  if (s.ok()) conn_ = nullptr;
  return s;
}

// ---- Integrity ----

StatusOr<std::vector<std::string>> IntegrityProblems(Connection& conn, int limit) {
  // A pragma's argument cannot be bound; `limit` is an integer formatted here.
  auto st = conn.Prepare("PRAGMA integrity_check(" + std::to_string(limit) + ")");
  if (!st.ok()) return st.status();
  std::vector<std::string> problems;
  for (;;) {
    auto row = st->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    if (std::string t = st->Text(0); t != "ok") problems.push_back(std::move(t));
  }
  return problems;
}

StatusOr<std::string> SearchIndexProblem(Connection& conn) {
  auto has = conn.Prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'rulings_fts'");
  if (!has.ok()) return has.status();
  auto row = has->Step();
  if (!row.ok()) return row.status();
  if (!*row || has->Int(0) == 0) return std::string();
  has = Statement();
  char* err = nullptr;
  const int rc =
      sqlite3_exec(conn.raw(), "INSERT INTO rulings_fts (rulings_fts) VALUES ('integrity-check')",
                   nullptr, nullptr, &err);
  std::string what = err ? err : sqlite3_errstr(rc);
  sqlite3_free(err);
  switch (rc & 0xff) {
    case SQLITE_OK:
      return std::string();
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_READONLY:
    case SQLITE_IOERR:
    case SQLITE_FULL:
      return conn.Error(rc, "checking the search index");
    default:  // SQLITE_CORRUPT_VTAB, SQLITE_CORRUPT, ...: the index does not match its rows
      return "search index rulings_fts does not match the rulings it indexes (" + what + ")";
  }
}

Status CheckBeforeWrite(Connection& conn) {
  auto problems = IntegrityProblems(conn, 1);
  if (!problems.ok()) return problems.status();
  std::string first = problems->empty() ? std::string() : problems->front();
  if (first.empty()) {
    auto fts = SearchIndexProblem(conn);
    if (!fts.ok()) return fts.status();
    first = *fts;
  }
  if (first.empty()) return Status::Ok();
  return IoError(conn.path() + ": the database file is damaged (" + first.substr(0, 200) +
                 "); nothing was written to it. Restore a copy, or move it aside and run `carc "
                 "db build` for a new one (its games and adjudications are not carried over); "
                 "`carc db check` lists every problem");
}

std::string NowIso() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace carc::database
