#ifndef TALLY_CSQLITE_CONFIG_H
#define TALLY_CSQLITE_CONFIG_H

/// Configures the SQLite library for Tally before any connection opens: no global memory
/// statistics, whose mutex every allocation would otherwise take. Returns an SQLite result code.
/// (sqlite3_config is variadic, which Swift cannot call.)
int tally_sqlite_configure(void);

#endif
