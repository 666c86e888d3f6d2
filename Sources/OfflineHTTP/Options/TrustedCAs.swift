import Foundation

/// The CA certificates TLS connections are verified against, found as curl, git, pip and
/// Python find them. Verification itself is never switched off.
///
/// The first of these that is set decides:
///
/// | setting | file | folder |
/// |---|---|---|
/// | a CA file given explicitly (`--ca-file`) | that file | none |
/// | `CURL_CA_BUNDLE` | that file | none |
/// | `SSL_CERT_FILE` and/or `SSL_CERT_DIR` | that file, else the system's | that folder, else the system's |
/// | nothing | the system's | the system's |
///
/// The system's are libcurl's built-in bundle and folder (`/etc/ssl/certs/ca-certificates.crt`
/// and `/etc/ssl/certs` on Debian). A folder holds certificates under hashed names, as
/// `openssl rehash` makes them. A variable set to an empty value counts as unset. The same
/// CAs verify an https proxy.
public struct TrustedCAs: Sendable, Equatable {
  /// Where certificates of one kind (a bundle file, a folder) come from.
  public enum Location: Sendable, Equatable {
    /// libcurl's built-in default.
    case system
    /// None of this kind.
    case none
    /// This path.
    case path(String)
  }

  /// The bundle file.
  public var file: Location
  /// The folder of hashed certificates.
  public var folder: Location
  /// The settings the locations came from, as a user writes them (`--ca-file`,
  /// `CURL_CA_BUNDLE`, `SSL_CERT_FILE`, `SSL_CERT_DIR`), with their paths; empty for the system.
  public var sources: [Source]

  /// One setting that chose a location.
  public struct Source: Sendable, Equatable {
    /// The option or variable, such as `SSL_CERT_FILE`.
    public var setting: String
    /// The path it gave.
    public var path: String
    /// Whether the path must be a folder.
    public var isFolder: Bool
  }

  /// The system's CAs.
  public static let system = TrustedCAs(file: .system, folder: .system, sources: [])

  private init(file: Location, folder: Location, sources: [Source]) {
    self.file = file
    self.folder = folder
    self.sources = sources
  }

  /// Chooses the CAs from an explicit CA file (nil for none) and then the environment.
  public init(caFile: String?, environment: CurlEnvironment) {
    func set(_ name: String) -> String? {
      environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }
    if let caFile, !caFile.isEmpty {
      self.init(
        file: .path(caFile), folder: .none,
        sources: [Source(setting: "--ca-file", path: caFile, isFolder: false)])
    } else if let bundle = set("CURL_CA_BUNDLE") {
      self.init(
        file: .path(bundle), folder: .none,
        sources: [Source(setting: "CURL_CA_BUNDLE", path: bundle, isFolder: false)])
    } else if set("SSL_CERT_FILE") != nil || set("SSL_CERT_DIR") != nil {
      let file = set("SSL_CERT_FILE")
      let folder = set("SSL_CERT_DIR")
      self.init(
        file: file.map { .path($0) } ?? .system, folder: folder.map { .path($0) } ?? .system,
        sources: [
          file.map { Source(setting: "SSL_CERT_FILE", path: $0, isFolder: false) },
          folder.map { Source(setting: "SSL_CERT_DIR", path: $0, isFolder: true) },
        ].compactMap { $0 })
    } else {
      self = .system
    }
  }

  /// Checks that every path chosen is there and readable, a file or a folder as it should be.
  ///
  /// - Throws: ``RequestOptionError`` naming the setting and the path.
  public func validate() throws(RequestOptionError) {
    for source in sources {
      var isFolder: ObjCBool = false
      let exists = FileManager.default.fileExists(atPath: source.path, isDirectory: &isFolder)
      guard exists, isFolder.boolValue == source.isFolder,
        FileManager.default.isReadableFile(atPath: source.path)
      else {
        let kind = source.isFolder ? "a readable folder" : "a readable file"
        throw RequestOptionError(
          option: source.setting, message: "\(source.path) is not \(kind) of CA certificates")
      }
    }
  }
}
