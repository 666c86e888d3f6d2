extension Transfer {
  /// How many connections fetch one file.
  ///
  /// Slices (a byte range of a resource) and servers without range support always get one
  /// connection, whatever is asked.
  public enum Connections: Sendable, Equatable, Hashable {
    /// One connection first; when the file still has at least 64 MiB to come and the one
    /// connection is slow (under 50 MB/s at its first progress update 0.2 s or more after
    /// its request), the transfer goes on over eight from where it stood, and grows towards
    /// ``Configuration/maximumConnections`` (16 when nil) while each added connection still
    /// raises the speed.
    case adaptive
    /// One request.
    case single
    /// This many connections from the start, each fetching a range written in place (see
    /// `SegmentedTransfer`); 1 or less is ``single``.
    case fixed(Int)

    /// `fixed(1)` and below as ``single``, so equal choices compare equal.
    var normalized: Connections {
      if case .fixed(let count) = self, count <= 1 { return .single }
      return self
    }
  }
}

extension Transfer.Connections: Codable {
  /// The index stores the choice as a number, as earlier versions did: 0 adaptive, 1 single,
  /// n fixed.
  public init(from decoder: any Decoder) throws {
    let count = try decoder.singleValueContainer().decode(Int.self)
    guard count >= 0 else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "\(count) connections"))
    }
    self = count == 0 ? .adaptive : Self.fixed(count).normalized
  }

  /// Writes the choice as a number: 0 adaptive, 1 single, n fixed.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch normalized {
    case .adaptive: try container.encode(0)
    case .single: try container.encode(1)
    case .fixed(let count): try container.encode(count)
    }
  }
}
