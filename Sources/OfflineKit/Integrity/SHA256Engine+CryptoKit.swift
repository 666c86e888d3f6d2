// Written for Apple platforms, not compiled in our CI.
#if !canImport(CCrypto) && canImport(CryptoKit)
  import CryptoKit

  /// SHA-256 from CryptoKit, where libcrypto is not linked (Apple platforms).
  final class SHA256Engine {
    private var hasher = CryptoKit.SHA256()

    func update(_ bytes: UnsafeRawBufferPointer) {
      hasher.update(bufferPointer: bytes)
    }

    /// An engine that has been fed the same bytes as this one, to go on apart.
    func copy() -> SHA256Engine {
      let other = SHA256Engine()
      other.hasher = hasher
      return other
    }

    /// The 32 bytes of the digest; feeding may not continue after.
    func finalize() -> [UInt8] {
      Array(hasher.finalize())
    }

    /// The digest of `bytes` in one call.
    static func digest(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
      Array(CryptoKit.SHA256.hash(data: bytes))
    }
  }
#endif
