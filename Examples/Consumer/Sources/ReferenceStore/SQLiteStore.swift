import CSQLite
import FamilyEntitlements
import Foundation
import ServerRecipes

/// The recipes' `EntitlementStore` on SQLite: one row per ledger key (the ledger's JSON, its version, the report and
/// its `validUntil`), an outbox, and the account links, written by the conditional write of docs/integrating.md.
///
/// Each instance holds its own connection; processes and threads share the database file. The database is in WAL mode
/// (readers never wait for the writer) with a busy timeout, and every write is one `BEGIN IMMEDIATE` transaction.
public final class SQLiteStore: EntitlementStore, @unchecked Sendable {
    /// The schema, as docs/integrating.md shows it.
    public static let schema = """
        CREATE TABLE IF NOT EXISTS ledgers (
            key         TEXT PRIMARY KEY,   -- customer:<appAccountToken>, or transaction:<originalTransactionId>
            version     INTEGER NOT NULL,   -- moved by every write; a write names the version it read
            ledger      BLOB NOT NULL,      -- CustomerLedger.jsonData(), compacted at the decision
            report      BLOB NOT NULL,      -- report.jsonData(), read with EntitlementReport(jsonData:)
            valid_until INTEGER             -- report.validUntil, ms since 1970; NULL: only Apple's news changes it
        );
        CREATE INDEX IF NOT EXISTS ledgers_valid_until ON ledgers (valid_until) WHERE valid_until IS NOT NULL;
        CREATE TABLE IF NOT EXISTS outbox (
            id        INTEGER PRIMARY KEY AUTOINCREMENT,
            customer  TEXT NOT NULL,
            action    BLOB NOT NULL,        -- OutboxAction's JSON: a silent push and the change codes
            delivered INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX IF NOT EXISTS outbox_pending ON outbox (id) WHERE delivered = 0;
        CREATE TABLE IF NOT EXISTS account_links (
            original_transaction_id TEXT PRIMARY KEY,
            app_account_token       TEXT NOT NULL
        );
        """

    /// The conditional write of an existing row; `sqlite3_changes` is 0 when another writer moved the version.
    public static let update = """
        UPDATE ledgers SET version = version + 1, ledger = ?, report = ?, valid_until = ?
        WHERE key = ? AND version = ?
        """

    /// The write of a new row (version 0 read); nothing is inserted when another writer inserted it first.
    public static let insert = """
        INSERT INTO ledgers (key, version, ledger, report, valid_until) VALUES (?, 1, ?, ?, ?)
        ON CONFLICT (key) DO NOTHING
        """

    private let connection: OpaquePointer
    private let lock = NSLock()
    private let beforeCommit: @Sendable () throws -> Void

    /// Opens (and creates) the database at `path`.
    ///
    /// `beforeCommit` runs inside every write's transaction, after its statements and before `COMMIT`: the stress
    /// test's writer dies there to show that a write is all or nothing.
    public init(path: String, beforeCommit: @escaping @Sendable () throws -> Void = {}) throws {
        var handle: OpaquePointer? = nil
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let opened = sqlite3_open_v2(path, &handle, flags, nil)
        guard opened == SQLITE_OK, let handle else {
            let error = SQLiteError(code: opened, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "")
            sqlite3_close_v2(handle)
            throw error
        }
        connection = handle
        self.beforeCommit = beforeCommit
        sqlite3_busy_timeout(connection, 30_000)
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = NORMAL")
        try execute(Self.schema)
    }

    deinit {
        sqlite3_close_v2(connection)
    }

    public func load(_ key: String) throws -> StoredLedger {
        let rows = try query("SELECT ledger, report, version FROM ledgers WHERE key = ?", [.text(key)]) { row in
            (ledger: row.blob(0), report: row.blob(1), version: row.int64(2))
        }
        guard let row = rows.first else { return StoredLedger() }
        return StoredLedger(
            ledger: try CustomerLedger(jsonData: row.ledger),
            report: try EntitlementReport(jsonData: row.report), version: row.version)
    }

    public func write(_ decision: DecisionWrite, under key: String, ifVersion version: Int64) throws -> Bool {
        let ledger = Value.blob(try decision.ledger.jsonData())
        let report = Value.blob(try decision.report.jsonData())
        let validUntil = decision.report.validUntil.map { Value.integer(Self.milliseconds($0)) } ?? .null
        let actions = try decision.actions.map { try JSONEncoder().encode($0) }
        return try transaction {
            if version == 0 {
                try run(Self.insert, [.text(key), ledger, report, validUntil])
            } else {
                try run(Self.update, [ledger, report, validUntil, .text(key), .integer(version)])
            }
            guard sqlite3_changes(connection) == 1 else { return false }  // the version moved: roll back
            for action in actions {
                try run("INSERT INTO outbox (customer, action) VALUES (?, ?)", [.text(key), .blob(action)])
            }
            try beforeCommit()
            return true
        }
    }

    public func keysDue(at instant: Date) throws -> [String] {
        try query(
            "SELECT key FROM ledgers WHERE valid_until <= ? ORDER BY valid_until, key",
            [.integer(Self.milliseconds(instant))]
        ) { $0.text(0) }
    }

    public func pendingActions(limit: Int) throws -> [PendingAction] {
        try query(
            "SELECT id, action FROM outbox WHERE delivered = 0 ORDER BY id LIMIT ?", [.integer(Int64(limit))]
        ) { row in
            PendingAction(id: row.int64(0), action: try JSONDecoder().decode(OutboxAction.self, from: row.blob(1)))
        }
    }

    public func markDelivered(_ id: Int64) throws {
        try locked { try run("UPDATE outbox SET delivered = 1 WHERE id = ?", [.integer(id)]) }
    }

    public func accountLinks() throws -> AccountLinks {
        let pairs = try query("SELECT original_transaction_id, app_account_token FROM account_links", []) { row in
            (OriginalTransactionID(row.text(0)), try AppAccountToken(parsing: row.text(1)))
        }
        return AccountLinks(owners: Dictionary(pairs) { first, _ in first })
    }

    /// Adds the links not stored yet, in one transaction; throws `LinkTaken`, and adds none, when another writer
    /// stored one of them for another user first.
    public func save(_ links: AccountLinks) throws {
        _ = try transaction {
            for (original, owner) in links.owners.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                let token = owner.uuid.uuidString.lowercased()
                try run(
                    """
                    INSERT INTO account_links (original_transaction_id, app_account_token) VALUES (?, ?)
                    ON CONFLICT (original_transaction_id) DO NOTHING
                    """, [.text(original.rawValue), .text(token)])
                let stored = try rows(
                    "SELECT app_account_token FROM account_links WHERE original_transaction_id = ?",
                    [.text(original.rawValue)]
                ) { $0.text(0) }
                guard stored == [token] else { throw LinkTaken(originalTransactionId: original.rawValue) }
            }
            return true
        }
    }

    /// Every outbox row, delivered or not, in the order written: for tests and audits.
    public func outbox() throws -> [(id: Int64, action: OutboxAction, delivered: Bool)] {
        try query("SELECT id, action, delivered FROM outbox ORDER BY id", []) { row in
            (row.int64(0), try JSONDecoder().decode(OutboxAction.self, from: row.blob(1)), row.int64(2) != 0)
        }
    }

    /// Every ledger key stored.
    public func keys() throws -> [String] {
        try query("SELECT key FROM ledgers ORDER BY key", []) { $0.text(0) }
    }

    /// Milliseconds since 1970, as Apple's dates and `validUntil` in the report's JSON.
    public static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}

/// A link is stored for another user: the restore that raced this one won.
public struct LinkTaken: Error, Hashable, Sendable {
    public var originalTransactionId: String
}

/// SQLite's result code and message.
public struct SQLiteError: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: Int32
    public var message: String

    public var description: String { "SQLite error \(code): \(message)" }
}

extension SQLiteStore {
    enum Value {
        case integer(Int64)
        case text(String)
        case blob(Data)
        case null
    }

    /// A row of a result, read by column.
    struct Row {
        let statement: OpaquePointer

        func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

        func text(_ column: Int32) -> String {
            sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
        }

        func blob(_ column: Int32) -> Data {
            let count = Int(sqlite3_column_bytes(statement, column))
            guard let bytes = sqlite3_column_blob(statement, column), count > 0 else { return Data() }
            return Data(bytes: bytes, count: count)
        }
    }

    /// SQLite copies what is bound (`SQLITE_TRANSIENT`).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    private func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(connection)))
    }

    private func execute(_ sql: String) throws {
        let code = sqlite3_exec(connection, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction: committed when it returns true, rolled back otherwise.
    private func transaction(_ body: () throws -> Bool) throws -> Bool {
        try locked {
            try execute("BEGIN IMMEDIATE")
            do {
                guard try body() else {
                    try execute("ROLLBACK")
                    return false
                }
                try execute("COMMIT")
                return true
            } catch {
                sqlite3_exec(connection, "ROLLBACK", nil, nil, nil)
                throw error
            }
        }
    }

    private func query<T>(_ sql: String, _ values: [Value], _ read: (Row) throws -> T) throws -> [T] {
        try locked { try rows(sql, values, read) }
    }

    private func run(_ sql: String, _ values: [Value]) throws {
        _ = try rows(sql, values) { _ in () }
    }

    /// Prepares, binds and steps one statement; the caller holds the lock.
    private func rows<T>(_ sql: String, _ values: [Value], _ read: (Row) throws -> T) throws -> [T] {
        var prepared: OpaquePointer? = nil
        let code = sqlite3_prepare_v2(connection, sql, -1, &prepared, nil)
        guard code == SQLITE_OK, let statement = prepared else { throw error(code) }
        defer { sqlite3_finalize(statement) }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .integer(let integer): sqlite3_bind_int64(statement, index, integer)
            case .text(let text): sqlite3_bind_text(statement, index, text, -1, Self.transient)
            case .blob(let data):
                data.withUnsafeBytes { bytes in
                    _ = sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), Self.transient)
                }
            case .null: sqlite3_bind_null(statement, index)
            }
        }
        var result: [T] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return result }
            guard step == SQLITE_ROW else { throw error(step) }
            result.append(try read(Row(statement: statement)))
        }
    }
}
