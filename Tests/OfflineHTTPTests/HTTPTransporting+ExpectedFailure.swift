import Foundation
import OfflineHTTP
import Testing

extension HTTPTransporting {
  /// Performs `request` and returns its head or its error as a value, for task closures
  /// (which cannot yet keep the typed error of `perform`).
  func outcome(
    of request: HTTPRequest, delegate: any HTTPResponseDelegate
  ) async -> Result<HTTPResponseHead, HTTPError> {
    do {
      return .success(try await perform(request, delegate: delegate))
    } catch {
      return .failure(error)
    }
  }

  /// Performs `request` expecting it to fail; records an issue and returns `nil` when it
  /// returns a response instead.
  func failure(
    of request: HTTPRequest, delegate: any HTTPResponseDelegate,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async -> HTTPError? {
    do {
      let head = try await perform(request, delegate: delegate)
      Issue.record(
        "expected an HTTPError, got status \(head.status)", sourceLocation: sourceLocation)
      return nil
    } catch {
      return error
    }
  }

  /// Performs a GET of `url` expecting it to fail; see ``failure(of:delegate:sourceLocation:)``.
  func failure(
    of url: URL, delegate: any HTTPResponseDelegate = RecordingDelegate(),
    sourceLocation: SourceLocation = #_sourceLocation
  ) async -> HTTPError? {
    await failure(of: HTTPRequest(url: url), delegate: delegate, sourceLocation: sourceLocation)
  }
}
