import Foundation
import OfflineHTTP

/// Every decision of one resumable transfer, as a value: events in, actions out, no I/O.
///
/// ``Transfer`` carries the actions out. The rules (RFC 9110, sections 14 and 15.3.7):
/// - A transfer with bytes on disk resumes with `Range: bytes=N-` and `If-Range` carrying the
///   stored validator; with no usable validator it starts over rather than risk a splice.
/// - Only a 206 whose `Content-Range` starts exactly at N is appended.
/// - A 200 means the file changed or the server ignores ranges: the part is emptied and the
///   body written from byte 0.
/// - A 416 is read, not written: when its complete length equals N the part is already whole;
///   otherwise the part is dropped and the transfer starts over.
/// - A 206 must be in the identity encoding, like the bytes it is appended to (RFC 9110
///   section 8.4: ranges of an encoded representation are ranges of the encoded bytes), and
///   only the bytes its `Content-Range` names are written.
/// - A complete length (of a 200, a 206 or a 416) that contradicts the one recorded for the
///   bytes on disk means they belong to another resource: they are dropped.
/// - Start-overs are bounded, so a server that keeps contradicting itself ends in an error.
struct TransferStateMachine: Sendable {
  /// Why bytes already on disk were thrown away: the public reason, of which the machine
  /// decides all but ``Transfer/RestartReason/unknownPartialFile`` and
  /// ``Transfer/RestartReason/completedFileChanged`` (found before it starts).
  typealias RestartReason = Transfer.RestartReason

  /// What to request.
  enum StartAction: Sendable, Equatable {
    /// Request the whole file; when `discardingPart` is set, empty the part file first.
    case requestWhole(discardingPart: RestartReason?)
    /// Request the bytes from `offset` on, if the file still matches `ifRange`.
    case requestRange(offset: Int64, ifRange: String)
    /// Request bytes `first...last` of the resource (a slice transfer), with `If-Range` when
    /// resuming; when `discardingPart` is set, empty the part file first.
    case requestSlice(first: Int64, last: Int64, ifRange: String?, discardingPart: RestartReason?)
    /// The part already holds every byte: verify it.
    case verify
  }

  /// What to do with the body of the response whose head just arrived.
  enum HeadAction: Sendable, Equatable {
    /// Append the body at the current offset.
    case append
    /// Empty the part file, then write the body from byte 0.
    case writeFromStart(restartReason: RestartReason?)
    /// A slice transfer got the whole resource (a 200): empty the part, then write only the
    /// slice's bytes, skipping the first `skip` bytes of the body.
    case writeSlice(skip: Int64, restartReason: RestartReason?)
    /// Read the body without writing it; then verify the part, which is whole.
    case discardThenVerify
    /// Read the body without writing it; then start over with a request for the whole file.
    case discardThenRestart(RestartReason)
    /// Stop: the response is an HTTP error (`status`), transient or not.
    case fail(status: Int)
    /// Stop: the server broke the range protocol more times than we start over.
    case failProtocol(String)
  }

  /// The most times one run starts over after the server contradicted a range request.
  static let maximumRestarts = 3

  /// The content coding of a response, nil for the identity (none or `identity`).
  static func encoding(of head: HTTPResponseHead) -> String? {
    guard let value = head.headers["Content-Encoding"]?.trimmingCharacters(in: .whitespaces),
      !value.isEmpty, value.lowercased() != "identity"
    else { return nil }
    return value.lowercased()
  }

  /// The validators of the file whose bytes are in the part.
  private(set) var validators: Validators
  /// The complete length, once a response stated it.
  private(set) var totalLength: Int64?
  /// Bytes in the part file (written or about to be written in order).
  private(set) var offset: Int64
  /// Start-overs after a contradiction so far, in this run (across its attempts).
  private(set) var restarts: Int
  /// The content coding of the bytes in the part (nil: identity), as their 200 stated it.
  private(set) var encoding: String?
  /// One past the last byte the current 206 may write (part offsets), nil when unbounded.
  private(set) var writeLimit: Int64?
  /// The complete length recorded for the bytes on disk, when a response contradicted it.
  private var contradictedLength: (recorded: Int64, stated: Int64?)?
  /// The slice of the resource this transfer fetches, nil for the whole resource.
  let slice: Transfer.Slice?
  /// The offset asked for, in the resource's bytes.
  private var requestedOffset: Int64 = 0

  init(
    offset: Int64, validators: Validators, totalLength: Int64?, slice: Transfer.Slice? = nil,
    encoding: String? = nil, restarts: Int = 0
  ) {
    self.offset = offset
    self.validators = validators
    self.slice = slice
    self.totalLength = slice?.length ?? totalLength
    self.encoding = encoding
    self.restarts = restarts
  }

  /// Decides the next request from what is on disk.
  mutating func start() -> StartAction {
    if let slice { return startSlice(slice) }
    if offset > 0, let total = totalLength, offset == total {
      return .verify
    }
    if offset > 0, let total = totalLength, offset > total {
      return restartWhole(.lengthChanged)
    }
    if offset > 0 {
      guard let ifRange = validators.ifRangeValue else { return restartWhole(.noValidator) }
      requestedOffset = offset
      return .requestRange(offset: offset, ifRange: ifRange)
    }
    requestedOffset = 0
    return .requestWhole(discardingPart: nil)
  }

  /// Decides what the response's body is for.
  mutating func didReceiveHead(_ head: HTTPResponseHead) -> HeadAction {
    writeLimit = nil
    if let slice { return didReceiveSliceHead(head, slice) }
    switch head.status {
    case 200:
      let fresh = Validators(head)
      let reason: RestartReason? =
        requestedOffset == 0 ? nil : (fresh == validators ? .rangesIgnored : .resourceChanged)
      validators = fresh
      totalLength = head.contentLength
      encoding = Self.encoding(of: head)
      offset = 0
      return .writeFromStart(restartReason: reason)
    case 206:
      guard requestedOffset > 0, let header = head.headers["Content-Range"],
        case .satisfied(let first, let last, let length)? = ContentRange(header),
        first == requestedOffset
      else { return discardOrFail(.rangeMismatch) }
      guard Self.encoding(of: head) == nil, encoding == nil else {
        return discardOrFail(.encodingChanged)
      }
      if let known = totalLength, let length, known != length {
        contradictedLength = (known, length)
        return discardOrFail(.lengthChanged)
      }
      totalLength = length ?? totalLength
      writeLimit = last + 1
      return .append
    case 416:
      let stated = head.headers["Content-Range"].flatMap(ContentRange.init)?.completeLength
      if let stated, stated == requestedOffset, requestedOffset > 0,
        totalLength == nil || totalLength == stated
      {
        totalLength = stated
        return .discardThenVerify
      }
      if let known = totalLength { contradictedLength = (known, stated) }
      return discardOrFail(.lengthChanged)
    default:
      return .fail(status: head.status)
    }
  }

  /// Records body bytes written in order.
  mutating func didWrite(_ count: Int) {
    offset += Int64(count)
  }

  /// After the part was emptied for a start-over.
  mutating func didDiscardPart(_ reason: RestartReason) {
    offset = 0
    encoding = nil
    if reason != .noValidator { validators = Validators() }
    if reason == .lengthChanged { totalLength = nil }
  }

  private mutating func restartWhole(_ reason: RestartReason) -> StartAction {
    offset = 0
    requestedOffset = 0
    return .requestWhole(discardingPart: reason)
  }

  private mutating func discardOrFail(_ reason: RestartReason) -> HeadAction {
    restarts += 1
    guard restarts <= Self.maximumRestarts else { return .failProtocol(explain(reason)) }
    return .discardThenRestart(reason)
  }

  /// Why a server that kept contradicting itself is given up on.
  private func explain(_ reason: RestartReason) -> String {
    switch reason {
    case .encodingChanged:
      return "the server kept answering range requests in a content encoding other than"
        + " identity, which cannot be appended to the bytes on disk"
    case .lengthChanged:
      guard let contradiction = contradictedLength else {
        return "the server kept stating a length for the file that contradicts the bytes on disk"
      }
      let stated = contradiction.stated.map { "\($0) bytes" } ?? "no length"
      return "the server kept stating different lengths for the file: \(contradiction.recorded)"
        + " bytes, then \(stated)"
    case .rangeMismatch:
      return "the server kept answering with other bytes than the range asked for"
    default:
      return "the server answered range requests inconsistently"
    }
  }

  // MARK: - Slices

  private mutating func startSlice(_ slice: Transfer.Slice) -> StartAction {
    if offset == slice.length { return .verify }
    var discarding: RestartReason?
    if offset > slice.length {
      discarding = .lengthChanged
    } else if offset > 0, validators.ifRangeValue == nil {
      discarding = .noValidator
    }
    if discarding != nil { offset = 0 }
    requestedOffset = slice.offset + offset
    return .requestSlice(
      first: requestedOffset, last: slice.offset + slice.length - 1,
      ifRange: offset > 0 ? validators.ifRangeValue : nil, discardingPart: discarding)
  }

  private mutating func didReceiveSliceHead(_ head: HTTPResponseHead, _ slice: Transfer.Slice)
    -> HeadAction
  {
    switch head.status {
    case 200:
      let fresh = Validators(head)
      let resumed = requestedOffset > slice.offset
      let reason: RestartReason? =
        resumed ? (fresh == validators ? .rangesIgnored : .resourceChanged) : nil
      if let length = head.contentLength, length < slice.offset + slice.length {
        return .failProtocol("the file is shorter than the byte range the playlist names")
      }
      // The slice's offsets count identity bytes; an encoded body has other ones.
      if Self.encoding(of: head) != nil { return discardOrFail(.encodingChanged) }
      validators = fresh
      offset = 0
      return .writeSlice(skip: slice.offset, restartReason: reason)
    case 206:
      guard let header = head.headers["Content-Range"],
        case .satisfied(let first, let last, _)? = ContentRange(header), first == requestedOffset,
        last == slice.offset + slice.length - 1
      else { return discardOrFail(.rangeMismatch) }
      guard Self.encoding(of: head) == nil else { return discardOrFail(.encodingChanged) }
      if offset == 0 { validators = Validators(head) }
      return .append
    default:
      return head.status == 416 ? discardOrFail(.lengthChanged) : .fail(status: head.status)
    }
  }
}
