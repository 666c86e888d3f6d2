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
/// - Start-overs are bounded, so a server that keeps contradicting itself ends in an error.
struct TransferStateMachine: Sendable {
  /// Why bytes already on disk were thrown away.
  enum RestartReason: Sendable, Equatable {
    case noValidator
    case resourceChanged
    case rangesIgnored
    case rangeMismatch
    case lengthChanged
  }

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

  /// The validators of the file whose bytes are in the part.
  private(set) var validators: Validators
  /// The complete length, once a response stated it.
  private(set) var totalLength: Int64?
  /// Bytes in the part file (written or about to be written in order).
  private(set) var offset: Int64
  private(set) var restarts = 0
  /// The slice of the resource this transfer fetches, nil for the whole resource.
  let slice: Transfer.Slice?
  /// The offset asked for, in the resource's bytes.
  private var requestedOffset: Int64 = 0

  init(
    offset: Int64, validators: Validators, totalLength: Int64?, slice: Transfer.Slice? = nil
  ) {
    self.offset = offset
    self.validators = validators
    self.slice = slice
    self.totalLength = slice?.length ?? totalLength
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
    if let slice { return didReceiveSliceHead(head, slice) }
    switch head.status {
    case 200:
      let fresh = Validators(head)
      let reason: RestartReason? =
        requestedOffset == 0 ? nil : (fresh == validators ? .rangesIgnored : .resourceChanged)
      validators = fresh
      totalLength = head.contentLength
      offset = 0
      return .writeFromStart(restartReason: reason)
    case 206:
      guard requestedOffset > 0, let header = head.headers["Content-Range"],
        case .satisfied(let first, _, let length)? = ContentRange(header), first == requestedOffset
      else { return discardOrFail(.rangeMismatch) }
      if let known = totalLength, let length, known != length {
        return discardOrFail(.lengthChanged)
      }
      totalLength = length ?? totalLength
      return .append
    case 416:
      let stated = head.headers["Content-Range"].flatMap(ContentRange.init)?.completeLength
      if let stated, stated == requestedOffset, requestedOffset > 0 {
        totalLength = stated
        return .discardThenVerify
      }
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
    if reason != .noValidator { validators = Validators() }
  }

  private mutating func restartWhole(_ reason: RestartReason) -> StartAction {
    offset = 0
    requestedOffset = 0
    return .requestWhole(discardingPart: reason)
  }

  private mutating func discardOrFail(_ reason: RestartReason) -> HeadAction {
    restarts += 1
    guard restarts <= Self.maximumRestarts else {
      return .failProtocol("the server answered range requests inconsistently")
    }
    return .discardThenRestart(reason)
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
      validators = fresh
      offset = 0
      return .writeSlice(skip: slice.offset, restartReason: reason)
    case 206:
      guard let header = head.headers["Content-Range"],
        case .satisfied(let first, let last, _)? = ContentRange(header), first == requestedOffset,
        last == slice.offset + slice.length - 1
      else { return discardOrFail(.rangeMismatch) }
      if offset == 0 { validators = Validators(head) }
      return .append
    default:
      return head.status == 416 ? discardOrFail(.lengthChanged) : .fail(status: head.status)
    }
  }
}
