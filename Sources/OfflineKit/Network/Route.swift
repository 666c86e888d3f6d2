import HexDigits

/// One entry of the kernel's routing table, as `/proc/net/route` or `/proc/net/ipv6_route`
/// list it.
struct Route: Sendable, Equatable {
  /// `RTF_UP`: the route is usable.
  static let upFlag: UInt32 = 0x0001
  /// `RTF_REJECT`: an `unreachable`, `prohibit` or `blackhole` route.
  static let rejectFlag: UInt32 = 0x0200

  /// The interface the route sends through, such as `eth0`.
  var interface: String
  /// The destination network in network byte order: 4 bytes for IPv4, 16 for IPv6.
  var destination: [UInt8]
  /// How many leading bits of `destination` count; 0 for a default route.
  var prefixLength: Int
  /// The route's metric; among equally long prefixes the lowest wins.
  var metric: UInt32
  /// The `RTF_*` flags.
  var flags: UInt32

  /// Whether the kernel may use this route (`RTF_UP`).
  var isUp: Bool { flags & Self.upFlag != 0 }
  /// Whether the route answers "unreachable" rather than sending (`RTF_REJECT`).
  var isReject: Bool { flags & Self.rejectFlag != 0 }
  /// Whether this is a default route (`0.0.0.0/0` or `::/0`).
  var isDefault: Bool { prefixLength == 0 }

  /// Whether `address` (same family) lies inside `destination/prefixLength`.
  func contains(_ address: [UInt8]) -> Bool {
    guard address.count == destination.count else { return false }
    var bits = prefixLength
    for (ours, theirs) in zip(destination, address) where bits > 0 {
      let mask: UInt8 = bits >= 8 ? 0xFF : ~(0xFF >> UInt8(bits))
      if ours & mask != theirs & mask { return false }
      bits -= 8
    }
    return true
  }

  /// The usable route the kernel would pick for `address`: the longest matching prefix,
  /// then the lowest metric. With `interface`, only routes through it count.
  static func bestMatch(for address: [UInt8], in routes: [Route], interface: String? = nil)
    -> Route?
  {
    var best: Route?
    for route in routes where route.isUp && route.contains(address) {
      if let interface, route.interface != interface { continue }
      guard let current = best else {
        best = route
        continue
      }
      if route.prefixLength > current.prefixLength
        || (route.prefixLength == current.prefixLength && route.metric < current.metric)
      {
        best = route
      }
    }
    return best
  }

  /// Parses the text of `/proc/net/route`; lines that do not fit are skipped.
  ///
  /// Destination and mask are the raw `in_addr` printed as a host-order number (`%08X`), so
  /// on little-endian machines `0100A8C0` is 192.168.0.1.
  static func parseIPv4(_ text: String) -> [Route] {
    text.split(whereSeparator: \.isNewline).compactMap { line in
      let fields = line.split(whereSeparator: \.isWhitespace)
      guard fields.count >= 8, fields[0] != "Iface",
        let destination = UInt32(fields[1], radix: 16),
        let flags = UInt32(fields[3], radix: 16),
        let metric = UInt32(fields[6]),
        let mask = UInt32(fields[7], radix: 16)
      else { return nil }
      return Route(
        interface: String(fields[0]),
        destination: withUnsafeBytes(of: destination) { Array($0) },
        prefixLength: mask.nonzeroBitCount,
        metric: metric,
        flags: flags)
    }
  }

  /// Parses the text of `/proc/net/ipv6_route`; lines that do not fit are skipped.
  ///
  /// Columns: destination, prefix length, source, source prefix length, next hop, metric,
  /// reference count, use count, flags, interface; all numbers in hexadecimal.
  static func parseIPv6(_ text: String) -> [Route] {
    text.split(whereSeparator: \.isNewline).compactMap { line in
      let fields = line.split(whereSeparator: \.isWhitespace)
      guard fields.count >= 10, let destination = ASCIIHex.bytes(fields[0].utf8),
        destination.count == 16,
        let prefixLength = Int(fields[1], radix: 16), prefixLength <= 128,
        let metric = UInt32(fields[5], radix: 16),
        let flags = UInt32(fields[8], radix: 16)
      else { return nil }
      return Route(
        interface: String(fields[9]), destination: destination, prefixLength: prefixLength,
        metric: metric, flags: flags)
    }
  }
}
