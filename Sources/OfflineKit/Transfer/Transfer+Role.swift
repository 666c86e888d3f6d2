import Foundation

extension Transfer {
  /// What a transfer is part of, given when it is made: it decides what the transfer does
  /// alone (its lock, its commits, its journal look-ups) and what its owner does for it.
  enum Role: Sendable {
    /// A download on its own (``Transfer/init(url:destination:store:transport:configuration:requestOptions:)``,
    /// `offline get`, the cache): it locks its destination, looks at what is there, and
    /// commits its own records.
    case standalone
    /// A file of the manager's queue (see ``QueuedFile``).
    case queuedFile(QueuedFile)
    /// A piece of a stream, named by OfflineKit inside a folder whose lock the runner holds.
    case streamPiece(Piece)
  }

  /// How a file of the manager's queue is downloaded.
  ///
  /// Its `complete` record goes to `completions`, written with the batch that records the
  /// file downloaded, and the record of its response to `responses`, written in one
  /// transaction with those of the queue's other files finishing at about the same moment:
  /// a commit of its own for each was most of the runner's SQLite work for a queue of small
  /// files. A record the journal holds for its destination under an earlier URL of the
  /// content, still being downloaded, is its own: the content's URL was replaced by a fresh
  /// one for the same resource (``OfflineSource/urlExpiresAt``, the URL refresh hook), so it
  /// resumes rather than restarts. That record's URL is rewritten in the first look-up, so
  /// the journal is read once per file, and not at all when the runner read it with the
  /// queue's rows and found no record.
  struct QueuedFile: Sendable {
    /// Where its `complete` record goes (see ``CompletionBatch``).
    var completions: CompletionBatch
    /// Where its response record goes before its rename (see ``ResponseRecordBatch``).
    var responses: ResponseRecordBatch
    /// Whether the runner read the journal with the queue's rows and found no record for
    /// the file, so the first look-up can be skipped.
    var journalHasNoRecord = false
  }

  /// How a stream's piece is downloaded inside its runner.
  ///
  /// Nothing of anyone else's belongs at its name, so the transfer takes no
  /// ``DestinationLock`` of its own, its part is created only when bytes leave the buffer,
  /// and what kind of file is at that name is not looked up before the download and again
  /// before the rename (two look-ups of a missing path for every piece). Such a transfer
  /// runs over one connection. A folder in the way still fails the rename, with its errno.
  struct Piece: Sendable {
    /// Where its `complete` record goes, written with other pieces' (see
    /// ``CompletionBatch``).
    var completions: CompletionBatch
    /// Where its response record goes before its rename, written in one transaction with
    /// others' (see ``ResponseRecordBatch``).
    var responses: ResponseRecordBatch
    /// Whether the runner read the journal just before and found no record for the piece,
    /// so the first look-up can be skipped (the runner reads its folder's records in one
    /// query).
    var journalHasNoRecord: Bool
    /// The pack its bytes go into, instead of a file of its own, when the whole body is
    /// still in the part's buffer as it ends (a small segment; see ``PiecePack``). Only
    /// without ``Configuration/syncsEachFile``.
    var pack: PiecePack?
  }

  /// This transfer, looking its record up in the journal before it starts even when the
  /// runner found none: the next try of a piece whose failed try may have left one.
  func readingItsRecord() -> Transfer {
    guard case .streamPiece(var piece) = role, piece.journalHasNoRecord else { return self }
    piece.journalHasNoRecord = false
    return Transfer(
      url: url, destination: destination, journal: journal, session: session,
      configuration: configuration, role: .streamPiece(piece))
  }

  /// Where the `complete` record goes instead of its own commit (nil: written at once).
  var completions: CompletionBatch? {
    switch role {
    case .standalone: nil
    case .queuedFile(let file): file.completions
    case .streamPiece(let piece): piece.completions
    }
  }

  /// Where the response record goes before the rename (nil: a commit of its own).
  var responses: ResponseRecordBatch? {
    switch role {
    case .standalone: nil
    case .queuedFile(let file): file.responses
    case .streamPiece(let piece): piece.responses
    }
  }

  /// Whether a record for ``destination`` under another URL is this transfer's (see
  /// ``Role/queuedFile(_:)``).
  var carriesOverJournal: Bool {
    guard case .queuedFile = role else { return false }
    return true
  }

  /// Whether the first journal look-up can be skipped (see ``Piece/journalHasNoRecord``,
  /// ``QueuedFile/journalHasNoRecord``).
  var journalHasNoRecord: Bool {
    switch role {
    case .standalone: false
    case .queuedFile(let file): file.journalHasNoRecord
    case .streamPiece(let piece): piece.journalHasNoRecord
    }
  }

  /// Whether ``destination`` is OfflineKit's name in a folder the caller holds locked (see
  /// ``Piece``).
  var destinationIsInLockedFolder: Bool {
    guard case .streamPiece = role else { return false }
    return true
  }

  /// The pack the bytes go into (see ``Piece/pack``).
  var pack: PiecePack? {
    guard case .streamPiece(let piece) = role else { return nil }
    return piece.pack
  }
}
