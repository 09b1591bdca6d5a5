#include "database/migrate.h"

namespace carc::database {

namespace {
const Migration kMigrations[] = {
#include "database/migrations.inc"
};
}  // namespace

const std::vector<Migration>& Migrations() {
  static const std::vector<Migration> all(std::begin(kMigrations), std::end(kMigrations));
  return all;
}

int LatestVersion() { return Migrations().empty() ? 0 : Migrations().back().version; }

StatusOr<int> UserVersion(Connection& conn) {
  auto st = conn.Prepare("PRAGMA user_version");
  if (!st.ok()) return st.status();
  auto row = st->Step();
  if (!row.ok()) return row.status();
  return static_cast<int>(st->Int(0));
}

Status Migrate(Connection& conn, const std::vector<Migration>& migrations) {
  auto current = UserVersion(conn);
  if (!current.ok()) return current.status();
  const int latest = migrations.empty() ? 0 : migrations.back().version;
  if (*current > latest)
    return Status(model::ErrorCode::kIo, conn.path() + ": database schema version " +
                                             std::to_string(*current) +
                                             " is newer than this carc knows (" +
                                             std::to_string(latest) + "); use a newer carc");
  if (*current == latest) return Status::Ok();
  auto tx = Transaction::Begin(conn);
  if (!tx.ok()) return tx.status();
  // Read again under the write lock: another process may have migrated meanwhile.
  current = UserVersion(conn);
  if (!current.ok()) return current.status();
  for (const Migration& m : migrations) {
    if (m.version <= *current) continue;
    if (Status s = conn.Exec(m.sql); !s.ok())
      return Status(s.code(), s.message() + " [schema/" + std::string(m.name) + "]");
  }
  // PRAGMA values cannot be bound; both are integers formatted here, not user input.
  if (Status s = conn.Exec("PRAGMA user_version = " + std::to_string(latest)); !s.ok()) return s;
  if (Status s = conn.Exec("PRAGMA application_id = " + std::to_string(kApplicationId)); !s.ok())
    return s;
  return tx->Commit();
}

StatusOr<Connection> OpenDatabase(const std::string& path, const OpenOptions& opts) {
  auto conn = Connection::Open(path, opts);
  if (!conn.ok()) return conn.status();
  if (opts.mode == OpenMode::kCreate) {
    if (Status s = Migrate(*conn); !s.ok()) return s;
    return conn;
  }
  auto v = UserVersion(*conn);
  if (!v.ok()) return v.status();
  if (*v != LatestVersion())
    return Status(model::ErrorCode::kIo,
                  path + ": database schema version " + std::to_string(*v) + ", this carc uses " +
                      std::to_string(LatestVersion()) +
                      (*v < LatestVersion() ? "; open it for writing once (`carc db build --db " +
                                                  path + "`) to migrate it"
                                            : "; use a newer carc"));
  return conn;
}

}  // namespace carc::database
