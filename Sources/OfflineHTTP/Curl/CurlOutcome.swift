// libcurl is linked on Linux only (Package.swift).
#if canImport(CCurl)
  import CCurl
  import Foundation

  /// Turns a finished easy handle's result code into the response or a typed ``HTTPError``.
  enum CurlOutcome {
    static func result(of call: CurlCall, code: CURLcode) -> Result<HTTPResponseHead, HTTPError> {
      let url = call.currentURL
      if let head = call.finalHead, code == CURLE_OK || call.stoppedByDelegate {
        return .success(head)
      }
      // A delegate's own failure is told by CurlDelivery, which knows it last.
      if call.headTooLarge || headRefusedByCurl(call, code: code) {
        return .failure(
          HTTPError(
            .headersTooLarge, url: url, curlCode: Int(code.rawValue),
            detail: "over \(CurlCall.maximumHeadBytes >> 10) KiB in all, or one line over 100 KB"))
      }
      if let problem = call.protocolError {
        return .failure(HTTPError(.protocolViolation, url: url, detail: problem))
      }
      if code == CURLE_OK {
        return .failure(HTTPError(.protocolViolation, url: url, detail: "no response head"))
      }
      return .failure(
        HTTPError(
          kind(of: code, call: call), url: url, curlCode: Int(code.rawValue),
          detail: call.curlMessage ?? String(cString: curl_easy_strerror(code))))
    }

    /// Whether libcurl gave up on the head for its size: 7.88 says "Out of memory" for one
    /// line over 100 KB; 8.6 and later say CURLE_TOO_LARGE (100) for a head over 300 KB.
    private static func headRefusedByCurl(_ call: CurlCall, code: CURLcode) -> Bool {
      guard call.finalHead == nil, call.receivedAnyHeader else { return false }
      return code == CURLE_OUT_OF_MEMORY || code.rawValue == 100
    }

    private static func kind(of code: CURLcode, call: CurlCall) -> HTTPError.Kind {
      switch code {
      case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
        return .cannotResolveHost
      case CURLE_COULDNT_CONNECT:
        return .cannotConnect
      case CURLE_OPERATION_TIMEDOUT:
        return call.receivedAnyHeader || connected(call) ? .stalled : .cannotConnect
      case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING,
        CURLE_HTTP2, CURLE_HTTP2_STREAM:
        // A proxy that refused the tunnel (libcurl 7.88 says "CONNECT tunnel failed,
        // response 403" with a receive error): the origin was never reached.
        return tunnelRefused(call) ? .cannotConnect : .connectionLost
      case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
        CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
        CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
        return .tlsFailure
      case CURLE_UNSUPPORTED_PROTOCOL:
        // Every URL handed to libcurl is http or https (the transport and the redirect policy
        // see to it), so libcurl says this of the reply: no status line, "Received HTTP/0.9
        // when not allowed".
        let scheme = call.currentURL.scheme?.lowercased() ?? "none"
        return URL.isHTTPScheme(scheme) ? .notHTTP : .unsupportedScheme(scheme)
      case CURLE_WEIRD_SERVER_REPLY:
        return .notHTTP
      case CURLE_BAD_CONTENT_ENCODING:
        return .protocolViolation
      default:
        return .other
      }
    }

    /// Whether a proxy answered the `CONNECT` for a tunnel with anything but a 2xx.
    private static func tunnelRefused(_ call: CurlCall) -> Bool {
      var code = 0
      _ = ok_easy_getinfo_long(call.easy, CURLINFO_HTTP_CONNECTCODE, &code)
      return code >= 300
    }

    private static func connected(_ call: CurlCall) -> Bool {
      var connectTime: curl_off_t = 0
      _ = ok_easy_getinfo_off(call.easy, CURLINFO_CONNECT_TIME_T, &connectTime)
      return connectTime > 0
    }
  }
#endif
