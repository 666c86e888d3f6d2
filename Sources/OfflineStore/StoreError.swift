import Foundation

#if canImport(CSQLite)
  import CSQLite
#else
  import SQLite3  // Apple platforms: the SDK's
#endif

/// An error from a database: a SQLite result code with the context a user needs to act.
///
/// Every error names the database file, and, when a statement failed, the SQL text. Switch on
/// ``code`` to decide what to do; show ``description`` to a person.
///
/// ```swift
/// do {
///   let database = try Database(path: path)
/// } catch let error where error.code == .notADatabase {
///   // Move the file away and start a fresh one.
/// }
/// ```
public struct StoreError: Error, CustomStringConvertible, Sendable {
  /// What went wrong, coarse enough for callers to act on: a value, so a release can add
  /// one without breaking a `switch` that has a `default`.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    /// The code's name, such as `notADatabase`.
    public let name: String

    private init(_ name: String) { self.name = name }

    /// The code's name.
    public var description: String { name }

    /// The file exists but is not a SQLite database (`SQLITE_NOTADB`).
    public static let notADatabase = Code("notADatabase")
    /// Another connection holds a conflicting lock and the busy timeout ran out
    /// (`SQLITE_BUSY`, `SQLITE_LOCKED`).
    public static let busy = Code("busy")
    /// The database file is damaged (`SQLITE_CORRUPT`).
    public static let corrupt = Code("corrupt")
    /// A write broke a constraint: `UNIQUE`, `NOT NULL`, `CHECK`, foreign key
    /// (`SQLITE_CONSTRAINT`).
    public static let constraint = Code("constraint")
    /// The disk is full: `SQLITE_FULL`, or an I/O error (`SQLITE_IOERR_WRITE`,
    /// `SQLITE_IOERR_SHMSIZE`, ...) whose system error is `ENOSPC` or `EDQUOT`.
    public static let full = Code("full")
    /// The database or its directory cannot be written (`SQLITE_READONLY`).
    public static let readOnly = Code("readOnly")
    /// The database file or its directory cannot be opened or created (`SQLITE_CANTOPEN`).
    public static let cannotOpen = Code("cannotOpen")
    /// The operating system reported an I/O error (`SQLITE_IOERR`).
    public static let ioError = Code("ioError")
    /// The API was used in a way it does not allow (`SQLITE_MISUSE`, wrong argument count,
    /// a transaction's connection used after the transaction, a reentrant call).
    public static let misuse = Code("misuse")
    /// A row did not hold the value a caller asked for: a missing column, a `NULL`, or a value
    /// of another type.
    public static let decoding = Code("decoding")
    /// Any other SQLite result code.
    public static let other = Code("other")
  }

  /// What went wrong, derived from ``resultCode``.
  public var code: Code
  /// The same, under the name the package's own code uses.
  package var kind: Code { code }
  /// The primary SQLite result code, such as `SQLITE_BUSY` (5).
  public var resultCode: Int32
  /// The extended SQLite result code, such as `SQLITE_IOERR_SHORT_READ`; equals
  /// ``resultCode`` when SQLite gave no extended code.
  public var extendedResultCode: Int32
  /// SQLite's own explanation (from `sqlite3_errmsg`), or ours for ``Code/misuse`` and
  /// ``Code/decoding``.
  public var message: String
  /// The SQL text that failed, if a statement was involved.
  public var sql: String?
  /// The path of the database file.
  public var path: String
  /// The operating system's error number behind an I/O error (`sqlite3_system_errno`), 0
  /// when there is none.
  public var systemErrno: Int32

  /// Creates an error from a SQLite result code; ``code`` follows from the primary code, and
  /// an I/O error whose `systemErrno` says the disk is full is ``Code/full``.
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
    self.code = Self.code(forPrimaryCode: code & 0xff)
    if self.code == .ioError, systemErrno == ENOSPC || systemErrno == EDQUOT { self.code = .full }
  }

  /// `SQLITE_CANTOPEN_SYMLINK`: the database's path is a symbolic link, which is refused.
  static let symbolicLinkCode: Int32 = SQLITE_CANTOPEN | (6 << 8)

  /// Creates an error of a given kind that SQLite did not report, such as ``Code/decoding``.
  init(kind: Code, message: String, sql: String?, path: String) {
    let code: Int32 =
      switch kind {
      case .decoding: SQLITE_MISMATCH
      case .cannotOpen: SQLITE_CANTOPEN
      default: SQLITE_MISUSE
      }
    self.init(code: code, message: message, sql: sql, path: path)
    self.code = kind
  }

  private static func code(forPrimaryCode code: Int32) -> Code {
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
    default:  // constraint, misuse, decoding, other
      let statement = sql.map { " while running `\($0)`" } ?? ""
      return "The index at \(path) reported an error\(statement): \(message) (\(code)); "
        + "this is likely a bug in OfflineKit, please report it."
    }
  }
}
