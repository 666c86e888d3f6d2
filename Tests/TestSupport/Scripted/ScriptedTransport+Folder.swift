import Foundation

extension ScriptedTransport {
  /// Serves every regular file under `folder` at `base` plus its relative path (a stream's
  /// playlists, segments and keys made by ffmpeg), each as a ``ScriptedResource``, and returns
  /// the URLs it serves by relative path. `respond` may change the response of each request
  /// (to hold a piece at a gate, for example); it gets the relative path as well.
  @discardableResult
  public func serve(
    folder: URL, at base: URL,
    changing respond: (@Sendable (String, ScriptedResponse) -> ScriptedResponse)? = nil
  ) throws -> [String: URL] {
    var served: [String: URL] = [:]
    let root = folder.standardizedFileURL.path
    let walker = FileManager.default.enumerator(
      at: folder, includingPropertiesForKeys: [.isRegularFileKey])
    while let file = walker?.nextObject() as? URL {
      guard try file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else {
        continue
      }
      let relative = String(file.standardizedFileURL.path.dropFirst(root.count + 1))
      let url = base.appending(path: relative)
      let resource = ScriptedResource(try Data(contentsOf: file))
      route(url) { request in
        let response = resource.response(to: request)
        return respond?(relative, response) ?? response
      }
      served[relative] = url
    }
    return served
  }
}
