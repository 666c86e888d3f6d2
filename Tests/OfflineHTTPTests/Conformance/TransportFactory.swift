import Foundation
import OfflineHTTP
import Testing

/// One transport under the conformance suite: how to make it with the settings a test needs,
/// and what it is known not to do on this platform, each with the reason.
///
/// The suite is written against ``HTTPTransporting`` only; every test runs once per factory
/// in ``all`` (`@Test(arguments: TransportFactory.all)`).
struct TransportFactory: Sendable, CustomTestStringConvertible {
  /// The settings both transports share.
  struct Settings: Sendable {
    var stallTimeout: Duration = .seconds(30)
    var trustedCAFile: String?
    var redirects = RedirectPolicy()
  }

  /// A behaviour a transport cannot give on this platform.
  enum Limit: Sendable, Hashable {
    /// Trusting a private CA given as a file.
    case privateCA
    /// Holding a response back for a slow delegate without ending it.
    case pauseWithoutEnding
  }

  let name: String
  let limits: [Limit: String]
  private let build: @Sendable (Settings) -> any HTTPTransporting

  var testDescription: String { name }

  /// A transport with `settings`.
  func make(_ settings: Settings = Settings()) -> any HTTPTransporting {
    build(settings)
  }

  /// Runs `body`; where this transport has `limit`, its failures are expected and recorded
  /// as a known issue with the reason (and a body that passes anyway is reported).
  func expecting(
    _ limit: Limit, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
  ) async {
    if let reason = limits[limit] {
      // Without flow control, how far the server gets before the check depends on the
      // machine's speed: on a loaded one the shortfall may not show in a given run.
      await withKnownIssue(
        Comment(rawValue: "\(name): \(reason)"), isIntermittent: limit == .pauseWithoutEnding,
        sourceLocation: sourceLocation
      ) { try await body() }
    } else {
      do {
        try await body()
      } catch {
        Issue.record(error, sourceLocation: sourceLocation)
      }
    }
  }

  static let curl = TransportFactory(name: "CurlTransport", limits: [:]) { settings in
    CurlTransport(
      configuration: .init(
        stallTimeout: settings.stallTimeout, redirects: settings.redirects,
        trustedCAFile: settings.trustedCAFile))
  }

  static let urlSession = TransportFactory(name: "URLSessionTransport", limits: urlSessionLimits) {
    settings in
    URLSessionTransport(
      configuration: .init(
        stallTimeout: settings.stallTimeout, redirects: settings.redirects,
        trustedCAFile: settings.trustedCAFile))
  }

  #if canImport(FoundationNetworking)
    static let urlSessionLimits: [Limit: String] = [
      .privateCA:
        "FoundationNetworking never raises the server-trust challenge and reads no CA file"
        + " (URLSessionCertificateAuthorityInfoFile is read only on Android)",
      .pauseWithoutEnding:
        "FoundationNetworking has no flow control: libcurl reads on into its delegate queue"
        + " whatever the delegate does, even after cancel(), and its suspend() sends the"
        + " request again without Range; so a response that outruns its delegate is ended"
        + " once 8 MiB wait (the transfer engine resumes it with Range)",
    ]
  #else
    static let urlSessionLimits: [Limit: String] = [:]
  #endif

  /// Every transport the suite runs.
  static let all = [curl, urlSession]
}
