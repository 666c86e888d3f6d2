import Foundation

#if canImport(CSQLite)
  import CSQLite
#else
  import SQLite3  // Apple platforms: the SDK's
#endif

/// An error from the offline index: a SQLite result code with the context a user needs to act.
///
/// Every error names the database file, and, when a statement failed, the SQL text. Switch on
/// ``kind`` to decide what to do; show ``description`` to a person.
///
/// ```swift
/// do {
///   let index = try OfflineIndex(directory: directory)
/// } catch let error where error.kind == .notADatabase {
///   // Move the file away and start a fresh index.
/// }
/// ```
public struct StoreError: Error, CustomStringConvertible, Sendable {
  /// What went wrong, coarse enough for callers to act on.
  public enum Kind: Sendable, Equatable {
    /// The file exists but is not a SQLite database (`SQLITE_NOTADB`).
    case notADatabase
    /// Another connection holds a conflicting lock and the busy timeout ran out
    /// (`SQLITE_BUSY`, `SQLITE_LOCKED`).
    case busy
    /// The database file is damaged (`SQLITE_CORRUPT`).
    case corrupt
    /// A write broke a constraint: `UNIQUE`, `NOT NULL`, `CHECK`, foreign key
    /// (`SQLITE_CONSTRAINT`).
    case constraint
    /// The disk is full: `SQLITE_FULL`, or an I/O error (`SQLITE_IOERR_WRITE`,
    /// `SQLITE_IOERR_SHMSIZE`, ...) whose system error is `ENOSPC` or `EDQUOT`.
    case full
    /// The database or its directory cannot be written (`SQLITE_READONLY`).
    case readOnly
    /// The database file or its directory cannot be opened or created (`SQLITE_CANTOPEN`).
    case cannotOpen
    /// The operating system reported an I/O error (`SQLITE_IOERR`).
    case ioError
    /// The API was used in a way it does not allow (`SQLITE_MISUSE`, wrong argument count,
    /// a transaction's connection used after the transaction, a reentrant call).
    case misuse
    /// A row did not hold the value a caller asked for: a missing column, a `NULL`, or a value
    /// of another type.
    case decoding
    /// Any other SQLite result code.
    case other
  }

  /// What went wrong, derived from ``resultCode``.
  public var kind: Kind
  /// The primary SQLite result code, such as `SQLITE_BUSY` (5).
  public var resultCode: Int32
  /// The extended SQLite result code, such as `SQLITE_IOERR_SHORT_READ`; equals
  /// ``resultCode`` when SQLite gave no extended code.
  public var extendedResultCode: Int32
  /// SQLite's own explanation (from `sqlite3_errmsg`), or ours for ``Kind/misuse`` and
  /// ``Kind/decoding``.
  public var message: String
  /// The SQL text that failed, if a statement was involved.
  public var sql: String?
  /// The path of the database file.
  public var path: String
  /// The operating system's error number behind an I/O error (`sqlite3_system_errno`), 0
  /// when there is none.
  public var systemErrno: Int32

  /// Creates an error from a SQLite result code; ``kind`` follows from the primary code, and
  /// an I/O error whose `systemErrno` says the disk is full is ``Kind/full``.
  ///
  /// - Parameters:
  ///   - code: A primary or extended SQLite result code.
  ///   - message: The explanation, usually `sqlite3_errmsg`.
  ///   - sql: The SQL text that failed, if any.
  ///   - path: The path of the database file.
  ///   - systemErrno: The `errno` behind an I/O error (`sqlite3_system_errno`), 0 for none.
  public init(
    code: Int32, message: String, sql: String? = nil, path: String, systemErrno: Int32 = 0
  ) {
    self.resultCode = code & 0xff
    self.extendedResultCode = code
    self.message = message
    self.sql = sql
    self.path = path
    self.systemErrno = systemErrno
    self.kind = Self.kind(forPrimaryCode: code & 0xff)
    if kind == .ioError, systemErrno == ENOSPC || systemErrno == EDQUOT { kind = .full }
  }

  /// `SQLITE_CANTOPEN_SYMLINK`: the database's path is a symbolic link, which is refused.
  static let symbolicLinkCode: Int32 = SQLITE_CANTOPEN | (6 << 8)

  /// Creates an error of a given kind that SQLite did not report, such as ``Kind/decoding``.
  init(kind: Kind, message: String, sql: String?, path: String) {
    let code: Int32 =
      switch kind {
      case .decoding: SQLITE_MISMATCH
      case .cannotOpen: SQLITE_CANTOPEN
      default: SQLITE_MISUSE
      }
    self.init(code: code, message: message, sql: sql, path: path)
    self.kind = kind
  }

  private static func kind(forPrimaryCode code: Int32) -> Kind {
    switch code {
    case SQLITE_NOTADB: .notADatabase
    case SQLITE_BUSY, SQLITE_LOCKED: .busy
    case SQLITE_CORRUPT: .corrupt
    case SQLITE_CONSTRAINT: .constraint
    case SQLITE_FULL: .full
    case SQLITE_READONLY: .readOnly
    case SQLITE_CANTOPEN: .cannotOpen
    case SQLITE_IOERR: .ioError
    case SQLITE_MISUSE, SQLITE_RANGE: .misuse
    case SQLITE_MISMATCH: .decoding
    default: .other
    }
  }

  /// A sentence that says what happened and what the user can do about it.
  public var description: String {
    let code = "SQLite code \(extendedResultCode)"
    switch kind {
    case .notADatabase:
      return "The index at \(path) is not a SQLite database (\(message)); "
        + "move it away and run again."
    case .corrupt:
      return "The index at \(path) is damaged (\(message), \(code)); move it away and run again."
    case .busy:
      return "The index at \(path) is locked by another process (\(message)); "
        + "wait for it to finish or stop it, then run again."
    case .full:
      return "The index at \(path) cannot be written: the disk is full (\(message), \(code)); "
        + "free some space (deleting downloaded contents works) and run again."
    case .readOnly:
      return "The index at \(path) cannot be written (\(message)); "
        + "check the permissions of the file and its directory, then run again."
    case .cannotOpen where extendedResultCode == StoreError.symbolicLinkCode:
      return "The index at \(path) is a symbolic link, which is never followed; "
        + "move it away and run again."
    case .cannotOpen:
      return "The index at \(path) cannot be opened (\(message)); "
        + "check that its directory exists and is writable, then run again."
    case .ioError:
      return "Reading or writing the index at \(path) failed (\(message), \(code)); "
        + "check the disk, then run again."
    case .constraint, .misuse, .decoding, .other:
      let statement = sql.map { " while running `\($0)`" } ?? ""
      return "The index at \(path) reported an error\(statement): \(message) (\(code)); "
        + "this is likely a bug in OfflineKit, please report it."
    }
  }
}
