import Foundation
import OfflineHTTP
import OfflineKit
import OfflineStore

/// What `get` makes and sets alike on an HLS and on a DASH download: both take the same
/// arguments and piece settings, so one function configures either.
protocol StreamDownload {
  init(
    url: URL, folder: URL, configuration: StreamConfiguration, journal: TransferJournal?,
    transport: any HTTPTransporting, retry: RetryPolicy, requestOptions: RequestOptions,
    rateLimiters: [RateLimiter])
  var onPieceRetry: (@Sendable (HLSDownload.PieceRetry) -> Void)? { get set }
  var waitsForOtherWriter: Bool { get set }
  var refreshesURL: Bool { get set }
}

extension HLSDownload: StreamDownload {}
extension DASHDownload: StreamDownload {}
