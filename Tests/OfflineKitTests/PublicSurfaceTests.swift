import Foundation
import TestSupport
import TestTiming
import Testing

/// The public face of each library product (issue 37, item 1): every public type at the top
/// of the module is curated in its catalog's `## Topics` (`Sources/<Module>/<Module>.docc`),
/// and OfflineKit keeps about 50 public types. Read from the symbol graph of the module as
/// built, the one DocC renders (`scripts/docs`), so a type made public by accident fails.
@Suite(.timed) struct PublicSurfaceTests {
  /// Public types, nested ones included, when issue 37 closed (197 over five products
  /// before, 79 of them in OfflineKit), plus `OfflineFileReader` (issue 40: a file read
  /// while it downloads) and `LiveRecordingOptions` with its `Start` (issue 41: where a live
  /// recording starts and when it stops), `LiveRecordingSummary` with its `Gap` and
  /// `Gap.Reason` (issue 41: what a recording holds, in a snapshot) and
  /// `Transfer.SourceReport` (issue 43: what each source of a file served), and
  /// `ContentProjection.Source` (issue 43: the same in the JSON that `ls`, `info` and the
  /// service share, its URL redacted). Raise it knowingly, with the type curated.
  static let typeBudget = 64

  /// The library products, each a module with a catalog of its own.
  static let products = [
    "OfflineKit", "OfflineHTTP", "OfflineStore", "HLSPlaylist", "DASHManifest", "Metalink",
  ]

  /// The public types of `module`, by their path (`OfflineContent.Event`).
  static func publicTypes(of module: String) async throws -> [String] {
    let build = URL(fileURLWithPath: BuiltProduct.path("offline-examples"))
      .deletingLastPathComponent()
    let output = try TemporaryDirectory(prefix: "offlinekit-symbols")
    let sources = SampleBlocks.root.appending(path: "Sources")
    var arguments = [
      "-module-name", module, "-target", "\(Self.machine)-unknown-linux-gnu",
      "-I", build.appending(path: "Modules").path,
      "-module-cache-path", build.appending(path: "ModuleCache").path,
      "-minimum-access-level", "public", "-output-dir", output.url.path,
    ]
    for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
      let map = sources.appending(path: module).appending(path: "module.modulemap")
      guard FileManager.default.fileExists(atPath: map.path) else { continue }
      arguments += ["-Xcc", "-fmodule-map-file=\(map.path)"]
    }
    let extract = try #require(ExecutableSearch.path(of: "swift-symbolgraph-extract"))
    let run = try await ProcessRunner.run(extract, arguments, timeout: 120)
    try #require(run.status == 0, "\(run.stderrText)")
    let data = try Data(contentsOf: output.url.appending(path: "\(module).symbols.json"))
    let graph = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let symbols = try #require(graph["symbols"] as? [[String: Any]])
    let typeKinds: Set = [
      "swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias",
      "swift.actor",
    ]
    return symbols.compactMap { symbol in
      let kind = (symbol["kind"] as? [String: Any])?["identifier"] as? String ?? ""
      guard typeKinds.contains(kind) else { return nil }
      return (symbol["pathComponents"] as? [String])?.joined(separator: ".")
    }.sorted()
  }

  static var machine: String {
    var name = utsname()
    uname(&name)
    return withUnsafeBytes(of: &name.machine) {
      String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
    }
  }

  /// The symbols the root page of `module`'s catalog lists in its `## Topics` (``Name``).
  static func curated(in module: String) throws -> Set<String> {
    let page = SampleBlocks.root.appending(path: "Sources/\(module)/\(module).docc/\(module).md")
    let text = try String(contentsOf: page, encoding: .utf8)
    let topics = text.components(separatedBy: "## Topics").dropFirst().joined()
    var names: Set<String> = []
    for line in topics.split(separator: "\n") where line.hasPrefix("- ``") {
      names.insert(String(line.dropFirst(4).prefix { $0 != "`" }))
    }
    return names
  }

  @Test(arguments: products)
  func everyPublicTypeIsCurated(module: String) async throws {
    let types = try await Self.publicTypes(of: module)
    let curated = try Self.curated(in: module)
    let topLevel = types.filter { !$0.contains(".") }
    #expect(topLevel.count > 5, "the symbol graph was read: \(types)")
    for type in topLevel {
      #expect(curated.contains(type), "\(type) is public but not in \(module).md's Topics")
    }
    for name in curated {
      #expect(types.contains(name), "\(name) is curated but not a public type of \(module)")
    }
  }

  @Test func offlineKitsPublicTypesStayWithinTheBudget() async throws {
    let types = try await Self.publicTypes(of: "OfflineKit")
    #expect(
      types.count <= Self.typeBudget,
      "\(types.count) public types, over the budget of \(Self.typeBudget): \(types)")
  }
}
