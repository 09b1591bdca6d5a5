#pragma once
// RAII wrappers over the SQLite C API. Every failure is a model::Status with code kIo (exit 74)
// and one message that names the database file and says what is wrong in words (locked,
// read-only, missing, not a carc database or corrupt), never a bare SQLite error code.
// SQL text is always a constant: values go through Bind(), never into the text.

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/core/status.h"

namespace carc::database {

using model::Status;
using model::StatusOr;

// "CARC" in ASCII: PRAGMA application_id of every database this code creates.
inline constexpr int32_t kApplicationId = 0x43415243;

enum class OpenMode {
  kReadOnly,   // the file must exist and be a carc database
  kCreate,     // read-write; created (and migrated) when missing; checked before any write
  kReadWrite,  // an existing carc database, read-write, neither migrated nor checked (db check)
};

struct OpenOptions {
  OpenMode mode = OpenMode::kReadOnly;
  // How long a statement waits for another connection's write lock before failing.
  int busy_timeout_ms = 5000;
};

class Statement;

class Connection {
 public:
  // Opens, sets the per-connection pragmas (foreign_keys, busy timeout; WAL for kCreate, a rollback
  // journal again when it closes) and checks the file is a carc database of a schema this build knows (migrating it if kCreate).
  static StatusOr<Connection> Open(const std::string& path, const OpenOptions& opts);

  Connection() = default;
  Connection(Connection&& o) noexcept;
  Connection& operator=(Connection&& o) noexcept;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  ~Connection();

  // Runs constant SQL text (schema, pragmas, BEGIN/COMMIT); never user values.
  Status Exec(std::string_view sql);
  StatusOr<Statement> Prepare(std::string_view sql);
  int64_t LastInsertRowid() const;

  // A Status for the last failure of this connection, worded by the SQLite result code.
  Status Error(int rc, std::string_view doing) const;

  const std::string& path() const { return path_; }
  sqlite3* raw() const { return db_; }
  int busy_timeout_ms() const { return busy_timeout_ms_; }

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
  int busy_timeout_ms_ = 0;
  bool wal_ = false;  // set to WAL by this connection: back to a rollback journal on close
};

class Statement {
 public:
  Statement() = default;
  Statement(Statement&& o) noexcept;
  Statement& operator=(Statement&& o) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  // Parameters are 1-based, as in SQLite.
  Statement& Bind(int i, int64_t v);
  Statement& Bind(int i, int v) { return Bind(i, static_cast<int64_t>(v)); }
  Statement& Bind(int i, std::string_view v);
  Statement& Bind(int i, const char* v) { return Bind(i, std::string_view(v)); }
  Statement& Bind(int i, const std::string& v) { return Bind(i, std::string_view(v)); }
  Statement& BindNull(int i);
  template <typename T>
  Statement& Bind(int i, const std::optional<T>& v) {
    return v ? Bind(i, *v) : BindNull(i);
  }

  // One step: true with a row to read, false when done.
  StatusOr<bool> Step();
  // Steps to the end (INSERT/UPDATE/DELETE), then resets for reuse.
  Status Run();
  void Reset();

  int64_t Int(int col) const;
  std::string Text(int col) const;
  std::optional<std::string> OptText(int col) const;
  std::optional<int64_t> OptInt(int col) const;
  double Real(int col) const;
  bool IsNull(int col) const;

 private:
  friend class Connection;
  Statement(const Connection* conn, sqlite3_stmt* s) : conn_(conn), stmt_(s) {}
  const Connection* conn_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
  int bind_rc_ = SQLITE_OK;  // first failed Bind, reported by Step
};

// BEGIN IMMEDIATE (takes the write lock at once, waiting up to the busy timeout) ... COMMIT;
// rolls back in the destructor unless committed.
class Transaction {
 public:
  static StatusOr<Transaction> Begin(Connection& conn);
  Transaction(Transaction&& o) noexcept : conn_(o.conn_) { o.conn_ = nullptr; }
  Transaction& operator=(Transaction&&) = delete;
  ~Transaction();
  Status Commit();

 private:
  explicit Transaction(Connection* c) : conn_(c) {}
  Connection* conn_ = nullptr;
};

// A SAVEPOINT inside a transaction: one record of a batch that fails rolls back alone.
class Savepoint {
 public:
  static StatusOr<Savepoint> Begin(Connection& conn);
  Savepoint(Savepoint&& o) noexcept : conn_(o.conn_) { o.conn_ = nullptr; }
  Savepoint& operator=(Savepoint&&) = delete;
  ~Savepoint();
  Status Release();

 private:
  explicit Savepoint(Connection* c) : conn_(c) {}
  Connection* conn_ = nullptr;
};

// Integrity. PRAGMA quick_check sees only the shape of the b-trees; these see more.
// PRAGMA integrity_check: the b-trees, every index against its table's rows (a damaged record
// whose indexed values changed), UNIQUE, NOT NULL and CHECK constraints. At most `limit`
// problems; empty when sound.
StatusOr<std::vector<std::string>> IntegrityProblems(Connection& conn, int limit);
// The full-text index rulings_fts against the rulings it indexes (FTS5's 'integrity-check'
// command: a statement that writes nothing but needs a read-write connection). Empty when sound
// or when the file has no such index.
StatusOr<std::string> SearchIndexProblem(Connection& conn);
// Both, as run by Connection::Open before any write (kCreate): a damaged file is refused (74)
// with a message naming it, before anything is written.
Status CheckBeforeWrite(Connection& conn);

// The current time, ISO 8601 UTC ("2024-05-01T12:00:00Z").
std::string NowIso();

}  // namespace carc::database
