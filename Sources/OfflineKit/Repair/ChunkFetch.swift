import Foundation
import OfflineHTTP
import OfflineStore

/// Fetches one damaged chunk of a file for a repair: `Range` for its bytes with `If-Range`
/// naming the version downloaded, into a staged part beside the file (`<file>.chunk<N>.part`),
/// checked against the chunk's recorded digest before anyone writes it into the file.
///
/// Only a 206 for exactly these bytes is taken; a 200 (the origin changed: `If-Range` did
/// not match) is stopped at its head, so a changed origin costs no body.
struct ChunkFetch: Sendable {
  /// The content's session: the download's options and cookies go with every chunk.
  let session: ContentSession

  /// How a chunk fetch ended without bytes to use.
  enum Failure: Error {
    /// The origin serves another version (a 200 to the `If-Range`, other bytes).
    case originChanged
    /// The request failed.
    case transfer(Transfer.Error)
  }

  /// The staged part of chunk `index` of the file at `path`.
  static func stagedPath(of path: String, chunk index: Int) -> String {
    path + ".chunk\(index).part"
  }

  /// Creates the staged part `staged` anew, open for reading and writing, or returns -1
  /// with `errno`: whatever was at its name goes first (a part no check vouched for, or a
  /// symbolic link, removed and never written through), and the new one is made with
  /// `O_EXCL | O_NOFOLLOW`, so nothing planted at the name in between is followed either.
  static func createStaged(_ staged: String) -> Int32 {
    FileSteps.unlink(staged)
    return FileSteps.open(
      staged, flags: O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode: 0o600)
  }

  /// Whether the staged part of chunk `index` already holds its recorded bytes (a repair
  /// killed after fetching it): then it is not fetched again.
  static func isStaged(_ staged: String, digest: String, length: Int64) -> Bool {
    guard FileSteps.regularFileSize(staged) == length else { return false }
    return PieceHashing.hash(path: staged, length: length)?.sha256 == digest
  }

  /// Fetches `range` of `piece`'s URL into `staged` and checks it against `digest`. Returns
  /// the body bytes received.
  func fetch(_ piece: PieceRecord, range: Range<Int64>, digest: String, into staged: String)
    async throws(Failure) -> Int64
  {
    guard let text = piece.url, let url = URL(string: text) else { throw .originChanged }
    let fd = Self.createStaged(staged)
    guard fd >= 0 else {
      throw .transfer(
        Transfer.Error(
          .file(TransferFileError(.open, errno: errno, path: staged)), url: url,
          destination: staged))
    }
    defer { close(fd) }
    let (first, last) = (range.lowerBound, range.upperBound - 1)
    var headers = HTTPHeaders()
    headers.add(name: "Range", value: "bytes=\(first)-\(last)")
    if let validator = Validators(etag: piece.etag, lastModified: piece.lastModified)
      .ifRangeValue
    {
      headers.add(name: "If-Range", value: validator)
    }
    let fetched = await session.body(
      of: session.request(url, headers: headers), into: fd, limit: Int64(range.count)
    ) { head in
      guard head.status == 206, let header = head.headers["Content-Range"],
        case .satisfied(let from, let to, _)? = ContentRange(header)
      else { return false }
      return from == first && to == last
    }
    // A 200 (`If-Range` did not match), or a 206 for other bytes: another version.
    let refused = !fetched.accepted && [200, 206].contains(fetched.head?.status)
    let head: HTTPResponseHead
    switch fetched.answer {
    case .success(let answered):
      head = answered
    case .failure(let error):
      if refused { throw .originChanged }
      throw .transfer(Transfer.Error(.network(error), url: url, destination: staged))
    }
    if head.status == 200 || refused { throw .originChanged }
    guard head.status == 206 else {
      throw .transfer(
        Transfer.Error(.status(head.status, retryAfter: nil), url: url, destination: staged))
    }
    guard fetched.written == Int64(range.count), Durability.syncData(fd) == 0 else {
      throw .transfer(
        Transfer.Error(
          .network(HTTPError(.connectionLost, url: url, detail: "the chunk came short")),
          url: url, destination: staged))
    }
    let hasher = SHA256()
    try? hasher.feed(fromFile: fd, length: fetched.written)
    guard hasher.finalizeHex() == digest else { throw .originChanged }
    return fetched.written
  }
}
