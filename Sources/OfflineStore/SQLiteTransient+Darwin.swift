// Written for Apple platforms, not compiled in our CI.
#if !canImport(CSQLite) && canImport(SQLite3)
  import SQLite3

  /// `SQLITE_TRANSIENT`, a macro Swift cannot import (CSQLite's shim gives it on Linux):
  /// SQLite copies the bound bytes before the call returns.
  func ok_sqlite_transient() -> sqlite3_destructor_type {
    unsafeBitCast(-1, to: sqlite3_destructor_type.self)
  }
#endif
