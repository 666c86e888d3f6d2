#if canImport(CCrypto)
  import CCrypto

  /// SHA-256 over libcrypto's EVP interface; the context is freed with the engine.
  final class SHA256Engine {
    private let context: OpaquePointer

    init() {
      context = EVP_MD_CTX_new()
      EVP_DigestInit_ex(context, EVP_sha256(), nil)
    }

    deinit {
      EVP_MD_CTX_free(context)
    }

    func update(_ bytes: UnsafeRawBufferPointer) {
      guard let base = bytes.baseAddress else { return }
      EVP_DigestUpdate(context, base, bytes.count)
    }

    /// An engine that has been fed the same bytes as this one, to go on apart.
    func copy() -> SHA256Engine {
      let other = SHA256Engine()
      EVP_MD_CTX_copy_ex(other.context, context)
      return other
    }

    /// The 32 bytes of the digest; feeding may not continue after.
    func finalize() -> [UInt8] {
      var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
      var length: UInt32 = 0
      EVP_DigestFinal_ex(context, &digest, &length)
      return Array(digest.prefix(Int(length)))
    }

    /// The digest of `bytes` in one call.
    static func digest(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
      var digest = [UInt8](repeating: 0, count: 32)
      _ = EVP_Digest(bytes.baseAddress, bytes.count, &digest, nil, EVP_sha256(), nil)
      return digest
    }
  }
#endif
