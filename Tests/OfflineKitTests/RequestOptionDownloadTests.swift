import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Files, ranges, streams (playlists, segments, keys, init sections, renditions), cache
/// entries and the manager's downloads all send the source's request options (issue 13,
/// item 1). Each pins that before, only the transport's own header fields went out, so a
/// source behind a token, Basic credentials, a cookie or a Referer check failed.
@Suite(.serialized, .timed) struct RequestOptionDownloadTests {
  static let body = TestData.bytes(count: 300_000, seed: 31)

  /// The options that open `folder` of a ``GatedOrigin``.
  static func opening(_ folder: String, origin: GatedOrigin) throws -> RequestOptions {
    var options = RequestOptions()
    switch folder {
    case "bearer": options.headers.add(name: "Authorization", value: "Bearer \(NginxGates.token)")
    case "basic":
      options.credentials = try Credentials(user: NginxGates.user, password: NginxGates.password)
    case "cookie": options.cookieFile = try origin.cookiesFile().path
    case "referer": options.referer = NginxGates.referer
    case "header": options.headers.add(name: NginxGates.headerName, value: NginxGates.headerValue)
    default: break
    }
    return options
  }

  func transfer(
    _ url: URL, into folder: TemporaryDirectory, _ options: RequestOptions,
    connections: Transfer.Connections = .single
  ) throws -> Transfer {
    let index = try OfflineIndex(directory: folder.url.appending(path: "store"))
    return Transfer(
      url: url, destination: folder.file("out.bin").path, journal: index.transfers,
      transport: CurlTransport(),
      configuration: Transfer.Configuration(
        retry: RetryPolicy(maximumAttempts: 1), connections: connections),
      requestOptions: options)
  }

  @Test(arguments: ["bearer", "basic", "cookie", "referer", "header"])
  func aFileBehindACheckDownloadsWithTheOptionsThatPassIt(folder: String) async throws {
    let origin = try await GatedOrigin(files: ["a.bin": Self.body])
    let url = origin.fileURL("a.bin", in: folder)
    let out = try TemporaryDirectory()
    let bare = try transfer(url, into: out, RequestOptions())
    do throws(Transfer.Error) {
      _ = try await bare.run()
      Issue.record("\(folder) let a request without options through")
    } catch {
      guard case .status(let code, _) = error.kind else {
        Issue.record("\(error)")
        return
      }
      #expect(code == 401 || code == 403)
    }
    let outcome = try await transfer(url, into: out, Self.opening(folder, origin: origin)).run()
    #expect(outcome.length == Int64(Self.body.count))
    #expect(try Data(contentsOf: out.file("out.bin")) == Self.body)
  }

  /// Pins: the ranges of a segmented download were requested without the options.
  @Test func everyRangeOfASegmentedDownloadSendsTheToken() async throws {
    let large = TestData.bytes(count: 9 << 20, seed: 32)
    let origin = try await GatedOrigin(files: ["big.bin": large])
    let out = try TemporaryDirectory()
    let outcome = try await transfer(
      origin.fileURL("big.bin", in: "bearer"), into: out, Self.opening("bearer", origin: origin),
      connections: .fixed(4)
    ).run()
    #expect(outcome.length == Int64(large.count))
    let log = try await origin.server.headerLog(minimumCount: 4)
    #expect(log.count >= 4, "a probe and several ranges")
    #expect(log.allSatisfy { $0["Authorization"] == "Bearer \(NginxGates.token)" })
    #expect(log.allSatisfy { $0.status == 206 || $0.status == 200 })
  }

  /// Pins: a malformed cookies file was ignored silently; now it is an error naming its
  /// line, and nothing is requested.
  @Test func aMalformedCookiesFileFailsNamingItsLineBeforeAnyRequest() async throws {
    let origin = try await GatedOrigin(files: ["a.bin": Self.body])
    let cookies = origin.secrets.file("bad-cookies.txt")
    try Data("# comment\n127.0.0.1\tFALSE\t/\tFALSE\tsoon\tsid\ts3cret\n".utf8).write(to: cookies)
    let out = try TemporaryDirectory()
    let bad = try transfer(
      origin.fileURL("a.bin", in: "open"), into: out, RequestOptions(cookieFile: cookies.path))
    do throws(Transfer.Error) {
      _ = try await bad.run()
      Issue.record("the download went ahead")
    } catch {
      guard case .invalidRequestOptions(let problem) = error.kind else {
        Issue.record("\(error)")
        return
      }
      #expect(problem.option == "--cookies")
      #expect(error.description.contains("line 2"))
      #expect(!error.description.contains("s3cret"))
    }
    #expect(try origin.server.accessLog().isEmpty)
  }

  /// Pins: a cache entry behind a header could not be fetched, nor revalidated.
  @Test func aCacheEntryBehindAHeaderIsFetchedAndRevalidatedWithIt() async throws {
    let origin = try await GatedOrigin(files: ["a.bin": Self.body])
    let store = try TemporaryDirectory()
    let options = try Self.opening("header", origin: origin)
    let cache = try FileCache(
      store: store.url,
      configuration: FileCache.Configuration(
        maximumAge: .zero, minimumFreeSpace: 0, requestOptions: options))
    let url = origin.fileURL("a.bin", in: "header")
    #expect(try await cache.data(for: url).value == Self.body)
    let again = try await cache.data(for: url)
    #expect(again.value == Self.body)
    #expect(again.source == .revalidated)
    let log = try await origin.server.headerLog(minimumCount: 2)
    #expect(log.count == 2)
    #expect(log.allSatisfy { $0["X-Api-Key"] == NginxGates.headerValue })
  }

  /// Pins: the manager started its transfers without the source's options.
  @Test func theManagerDownloadsASourceBehindATokenWithItsOptions() async throws {
    let origin = try await GatedOrigin(files: ["a.bin": Self.body])
    let fixture = try ManagerFixture()
    let source = OfflineSource(
      url: origin.fileURL("a.bin", in: "bearer"), id: "movie",
      requestOptions: try Self.opening("bearer", origin: origin))
    let content = try await fixture.manager.content(for: source)
    let recorder = EventRecorder(content.events)
    try await content.download()
    let finished = try await fixture.running {
      await recorder.waitFor { $0.name == "finished" }
    }
    #expect(finished, "\(recorder.names)")
    let path = try await content.playbackURL().path
    #expect(FileManager.default.contents(atPath: path) == Self.body)
  }

  /// Pins: the manager accepted a source whose options cannot be used.
  @Test func aSourceWithABadHeaderIsRefusedAndNothingIsQueued() async throws {
    let fixture = try ManagerFixture()
    var options = RequestOptions()
    options.headers.add(name: "X-Bad", value: "one\r\nX-Injected: two")
    do {
      _ = try await fixture.manager.add(
        [OfflineSource(url: URL(string: "http://127.0.0.1:9/a.bin")!, requestOptions: options)])
      Issue.record("the source was queued")
    } catch {
      #expect(error.description.contains("--header"))
      #expect(!error.description.contains("Injected"))
    }
    #expect(try await fixture.manager.snapshots().isEmpty)
  }
}
