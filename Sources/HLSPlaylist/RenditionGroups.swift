/// The renditions of a multivariant playlist by group, to check the rules RFC 8216 §4.3.4.1.1
/// gives as MUSTs: in one group (one `TYPE` and `GROUP-ID`) every `NAME` differs, and at most
/// one member has `DEFAULT=YES`.
struct RenditionGroups {
  private struct Key: Hashable {
    var type: Rendition.MediaType
    var groupID: String
  }

  private struct Group {
    var names: [String: Int] = [:]
    var defaultLine: Int?
  }

  private var groups: [Key: Group] = [:]

  /// Adds `rendition`, read on `line`.
  ///
  /// - Throws: `PlaylistError` on `line` when its group already has a rendition of that name,
  ///   or already has a default one and this one is a default too.
  mutating func add(_ rendition: Rendition, line: Int) throws(PlaylistError) {
    let key = Key(type: rendition.type, groupID: rendition.groupID)
    var group = groups[key] ?? Group()
    let groupName = "the \(rendition.type.rawValue) group \(rendition.groupID.truncatedForMessage)"
    if let first = group.names[rendition.name] {
      throw PlaylistError(
        line: line,
        message: "EXT-X-MEDIA NAME \(rendition.name.truncatedForMessage) is already used in "
          + "\(groupName) (line \(first)); the names in a group must differ.")
    }
    if rendition.isDefault, let first = group.defaultLine {
      throw PlaylistError(
        line: line,
        message: "EXT-X-MEDIA: \(groupName) already has a DEFAULT=YES rendition "
          + "(line \(first)); a group may have only one.")
    }
    group.names[rendition.name] = line
    if rendition.isDefault { group.defaultLine = line }
    groups[key] = group
  }
}
