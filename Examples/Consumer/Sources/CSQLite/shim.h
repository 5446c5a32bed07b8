// The system's SQLite (libsqlite3-dev on Debian and Ubuntu; part of macOS).
#include <sqlite3.h>
