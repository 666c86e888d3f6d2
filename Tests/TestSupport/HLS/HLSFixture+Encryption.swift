import Foundation

/// The AES-128 fixture: ffmpeg writes plain MPEG-TS segments, `openssl enc` encrypts them, and
/// the playlist is written here, for full control over keys, IVs and the media sequence.
extension HLSFixture {
  /// The media sequence number of the first segment.
  static let firstMediaSequence = 7
  /// How many consecutive segments share one key.
  static let segmentsPerKey = 2

  /// The 16 bytes of key `index`: fixed, so a failing run can be repeated by hand.
  static func keyBytes(_ index: Int) -> Data {
    TestData.bytes(count: 16, seed: 1_000 + UInt64(index))
  }

  /// The explicit IV of key `index` when it has one (even indexes), else `nil`: the client
  /// must then use the segment's media sequence number (RFC 8216, 5.2).
  static func explicitIV(_ index: Int) -> Data? {
    index.isMultiple(of: 2) ? TestData.bytes(count: 16, seed: 2_000 + UInt64(index)) : nil
  }

  /// The IV of the segment with media sequence number `sequence` under key `index`.
  static func iv(forKey index: Int, sequence: Int) -> Data {
    if let iv = explicitIV(index) { return iv }
    var bytes = [UInt8](repeating: 0, count: 16)
    for byte in 0..<8 { bytes[15 - byte] = UInt8(truncatingIfNeeded: sequence >> (byte * 8)) }
    return Data(bytes)
  }

  /// Plain segments `plainN.ts` from ffmpeg, encrypted into `segN.ts` with keys `keyK.key`.
  func buildRotatingKeys(in folder: URL, _ parameters: Parameters) async throws -> Product {
    let plain = folder.appendingPathComponent("plain", isDirectory: true)
    try FileManager.default.createDirectory(at: plain, withIntermediateDirectories: true)
    try await FFmpeg.checked(
      Self.smallStream(parameters) + ["-start_number", "\(Self.firstMediaSequence)"]
        + ["-hls_segment_filename", plain.path + "/seg%d.ts", plain.path + "/index.m3u8"])
    let (target, segments) = try Self.segments(of: plain.appendingPathComponent("index.m3u8"))

    var lines = [
      "#EXTM3U", "#EXT-X-VERSION:3", target,
      "#EXT-X-MEDIA-SEQUENCE:\(Self.firstMediaSequence)", "#EXT-X-PLAYLIST-TYPE:VOD",
    ]
    var keys: [String] = []
    for (offset, segment) in segments.enumerated() {
      let sequence = Self.firstMediaSequence + offset
      let keyIndex = offset / Self.segmentsPerKey
      let key = Self.keyBytes(keyIndex)
      if offset.isMultiple(of: Self.segmentsPerKey) {
        let name = "key\(keyIndex).key"
        try key.write(to: folder.appendingPathComponent(name))
        keys.append(name)
        let iv = Self.explicitIV(keyIndex).map { ",IV=0x" + Self.hex($0) } ?? ""
        lines.append("#EXT-X-KEY:METHOD=AES-128,URI=\"\(name)\"\(iv)")
      }
      try await Self.encrypt(
        plain.appendingPathComponent(segment.uri), to: folder.appendingPathComponent(segment.uri),
        key: key, iv: Self.iv(forKey: keyIndex, sequence: sequence))
      lines += [segment.info, segment.uri]
    }
    lines.append("#EXT-X-ENDLIST")
    try (lines.joined(separator: "\n") + "\n").write(
      to: folder.appendingPathComponent("index.m3u8"), atomically: true, encoding: .utf8)
    try FileManager.default.removeItem(at: plain)
    return Product(entry: "index.m3u8", keys: keys)
  }

  /// Encrypts `input` into `output` with AES-128-CBC and PKCS#7 padding, as HLS wants.
  static func encrypt(_ input: URL, to output: URL, key: Data, iv: Data) async throws {
    try await ProcessRunner.checked(
      "/usr/bin/openssl",
      [
        "enc", "-aes-128-cbc", "-K", hex(key), "-iv", hex(iv),
        "-in", input.path, "-out", output.path,
      ])
  }

  /// `data` as lowercase hexadecimal digits.
  static func hex(_ data: Data) -> String {
    data.map { String(format: "%02x", $0) }.joined()
  }
}
