// Written for Apple platforms, not compiled in our CI.
#if canImport(Security)
  import Foundation
  import Security

  extension URLSessionRouter {
    /// Answers a server-trust challenge, false for any other: the server's certificate is
    /// evaluated against the request's own CA file (``RequestOptions/caFile``), else
    /// ``URLSessionTransport/Configuration/trustedCAFile``, alone when one is set; otherwise
    /// the system decides. Verification is never skipped.
    func answeredServerTrust(
      _ challenge: URLAuthenticationChallenge, task: URLSessionTask,
      completionHandler:
        @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?)
        -> Void
    ) -> Bool {
      guard challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust
      else { return false }
      guard let trust = challenge.protectionSpace.serverTrust,
        let file = call(for: task)?.request.options.caFile ?? configuration.trustedCAFile
      else {
        completionHandler(.performDefaultHandling, nil)
        return true
      }
      let anchors = Self.certificates(inPEMFile: file)
      SecTrustSetAnchorCertificates(trust, anchors as CFArray)
      SecTrustSetAnchorCertificatesOnly(trust, true)
      if !anchors.isEmpty, SecTrustEvaluateWithError(trust, nil) {
        completionHandler(.useCredential, URLCredential(trust: trust))
      } else {
        completionHandler(.cancelAuthenticationChallenge, nil)
      }
      return true
    }

    /// The certificates of a PEM file, in order; none when it cannot be read.
    static func certificates(inPEMFile path: String) -> [SecCertificate] {
      guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
      return text.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst().compactMap {
        guard let base64 = $0.components(separatedBy: "-----END CERTIFICATE-----").first,
          let der = Data(base64Encoded: base64, options: .ignoreUnknownCharacters)
        else { return nil }
        return SecCertificateCreateWithData(nil, der as CFData)
      }
    }
  }
#endif
