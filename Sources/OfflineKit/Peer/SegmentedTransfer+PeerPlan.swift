import Foundation
import OfflineHTTP
import OfflineStore

extension SegmentedTransfer {
  /// Why the origin's failure to answer the first request lets a peer serve the whole
  /// file, as a phrase (`it could not be reached (…)`, `it answered HTTP 503`); nil for a
  /// failure no peer stands in for: a stop, a 4xx (the origin says the file is not there,
  /// or not for this request), a Metalink to follow.
  static func originProblem(_ error: Transfer.Error) -> String? {
    switch error.kind {
    case .network(let failure) where failure.kind != .canceled:
      return "it could not be reached (\(failure.description))"
    case .status(let status, _) where status >= 500:
      return "it answered HTTP \(status)"
    default:
      return nil
    }
  }

  /// The `If-Range` value of the origin's requests when the peer's copy names no strong
  /// `ETag`: a date no file served was modified at, so a range the origin is asked for (the
  /// peer gone, say) comes back whole, and the file starts over from the origin alone,
  /// never spliced with bytes of a version the origin did not confirm.
  static let unconfirmedIfRange = "Thu, 01 Jan 1970 00:00:00 GMT"

  /// The plan of a file the origin cannot serve in ranges (`originProblem`, a phrase;
  /// `originHead`, its answer when it gave one without ranges): the whole file from the
  /// first of ``peers`` that told its length and SHA-256, checked against that SHA-256 (the
  /// peer's own record: the origin cannot confirm it), told to `onEvent` as
  /// ``Transfer/Event/peerInsteadOfOrigin(_:reason:)``. Nil when no peer fits: each one
  /// that holds the file but does not fit is told as dropped, and the origin's own answer
  /// stands.
  ///
  /// A peer fits when its copy has a length and a SHA-256, agrees with the SHA-256 and
  /// length the download was given, and with the origin's length and strong `ETag` when
  /// the origin answered.
  func peerPlan(
    originProblem: String, originHead: HTTPResponseHead?,
    onEvent: @Sendable (Transfer.Event) -> Void
  ) throws(Transfer.Error) -> (RangeBoard, Int32, Int64, String, ResponseHints)? {
    let unfit = peers.map { unfitness(of: $0.copy, originHead: originHead) }
    guard let chosen = peers.indices.first(where: { unfit[$0] == nil }).map({ peers[$0] }),
      let sha256 = chosen.copy.sha256
    else {
      for (peer, reason) in zip(peers, unfit) {
        onEvent(.sourceDropped(peer.mirror, reason: reason ?? "the peer cannot stand in"))
      }
      return nil
    }
    var record = TransferRecord(destination: destination, url: transfer.url.absoluteString)
    record.totalLength = chosen.copy.length
    // The origin's ETag as the peer was answered: the one a resume sends the origin.
    record.etag = chosen.copy.etag
    record.expectedSHA256 = sha256
    let (board, fd) = try startFresh(record, mirrors: false)
    var hints = ResponseHints()
    hints.sha256 = sha256
    onEvent(.peerInsteadOfOrigin(chosen.mirror, reason: originProblem))
    let validator = Validators(etag: chosen.copy.etag).ifRangeValue ?? Self.unconfirmedIfRange
    return (board, fd, chosen.copy.length, validator, hints)
  }

  /// Why `copy` cannot be the file when the origin cannot confirm it, as a phrase; nil
  /// when it can.
  private func unfitness(of copy: PeerCopy, originHead: HTTPResponseHead?) -> String? {
    guard let sha256 = copy.sha256, copy.length > 0 else {
      return "the peer's copy tells no SHA-256 to check it against, and the origin cannot"
    }
    let configuration = transfer.configuration
    if let expected = configuration.expectedSHA256, expected != sha256 {
      return SourceChoice.DropReason.digestMismatch(expected: expected, actual: sha256)
        .description
    }
    if let expected = configuration.expectedLength, expected != copy.length {
      return SourceChoice.DropReason.lengthMismatch(expected: expected, actual: copy.length)
        .description
    }
    guard let head = originHead else { return nil }
    let coded = head.headers["Content-Encoding"].map {
      !$0.trimmingCharacters(in: .whitespaces).isEmpty && $0.lowercased() != "identity"
    }
    if coded != true, let text = head.headers["Content-Length"], let length = Int64(text),
      length != copy.length
    {
      return SourceChoice.DropReason.lengthMismatch(expected: length, actual: copy.length)
        .description
    }
    if let told = head.headers["ETag"].flatMap(EntityTag.init), !told.isWeak,
      let etag = copy.etag, etag != told.rawValue
    {
      return "the peer's copy is of another version (ETag \(etag), the origin's \(told.rawValue))"
    }
    return nil
  }
}
