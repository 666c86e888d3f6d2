import Foundation

extension PieceRetryPolicy {
  /// A piece of the stream (media playlist, segment, init section, key) failed and is
  /// about to be tried again; see ``StreamDownloading/onPieceRetry``.
  public struct Retry: Sendable {
    /// The piece's URL.
    public var url: URL
    /// Which retry this is: 1 for the first.
    public var retry: Int
    /// The retries allowed (``StreamConfiguration/pieceRetries``).
    public var retries: Int
    /// The wait before it.
    public var delay: Duration
    /// Why the last try failed.
    public var error: Transfer.Error
  }
}
