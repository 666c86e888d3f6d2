import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What a ``URLSessionCall`` does when too many bytes wait for its delegate: the one place
/// the two URLSession implementations differ for OfflineKit.
enum URLSessionFlowControl {
  #if canImport(FoundationNetworking)
    /// FoundationNetworking's `suspend()` sends the request again from byte 0 without
    /// `Range` (the body would arrive twice) and it reads ahead without bound, so the only
    /// bounded choice is to end the response: the caller resumes it with `Range`.
    static let canSuspend = false
  #else
    /// Apple's URLSession stops reading the socket while a data task is suspended.
    static let canSuspend = true
  #endif
}
