import CCurl
import Foundation

/// Turns a finished easy handle's result code into the response or a typed ``HTTPError``.
enum CurlOutcome {
  static func result(of call: CurlCall, code: CURLcode) -> Result<HTTPResponseHead, HTTPError> {
    let url = call.currentURL
    if let head = call.finalHead, code == CURLE_OK || call.stoppedByDelegate {
      return .success(head)
    }
    if let error = call.delegateError {
      return .failure(HTTPError(.delegateFailed, url: url, underlying: error))
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
      return .connectionLost
    case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
      CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
      CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
      return .tlsFailure
    case CURLE_UNSUPPORTED_PROTOCOL:
      return .unsupportedScheme(call.currentURL.scheme ?? "none")
    case CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING:
      return .protocolViolation
    default:
      return .other
    }
  }

  private static func connected(_ call: CurlCall) -> Bool {
    var connectTime: curl_off_t = 0
    _ = ok_easy_getinfo_off(call.easy, CURLINFO_CONNECT_TIME_T, &connectTime)
    return connectTime > 0
  }
}
