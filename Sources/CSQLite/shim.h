// Macros of sqlite3 that Swift cannot import. Nothing else lives here.
#ifndef OFFLINEKIT_CSQLITE_SHIM_H
#define OFFLINEKIT_CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT: SQLite copies the bound bytes before the call returns.
static inline sqlite3_destructor_type ok_sqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
