// libcurl is linked on Linux only (Package.swift).
#if canImport(CCurl)
  import CCurl
  import Foundation

  extension CurlCall {
    /// Whether this hop may carry the request's secrets: its header fields that carry one,
    /// credentials and netrc's (see ``SecretHops``).
    var sendsSecrets: Bool { secretHops.sendsSecrets }

    /// Whether this hop carries the content's cookies, which follow their own domain rules
    /// (libcurl's cookie engine; see ``SecretHops``).
    var sendsCookies: Bool { secretHops.sendsCookies }

    /// The header fields this hop sends: the options' fields, then the request's own (which
    /// replace the options' fields of the same name), without the secrets when this hop may
    /// not carry them.
    var outgoingHeaders: HTTPHeaders {
      request.options.outgoingHeaders(adding: request.headers, sendsSecrets: sendsSecrets)
    }

    /// Sets the header list, user agent, referer, credentials, netrc and cookies on `handle`.
    /// Called on the loop's thread for each hop.
    func setRequestOptions(_ handle: UnsafeMutableRawPointer) {
      let options = request.options
      let headers = outgoingHeaders
      _ = ok_easy_setopt_str(
        handle, CURLOPT_USERAGENT,
        headers["User-Agent"] ?? options.userAgent ?? configuration.userAgent
      )
      if let referer = options.referer {
        _ = ok_easy_setopt_str(handle, CURLOPT_REFERER, referer)
      }
      var list: UnsafeMutablePointer<curl_slist>?
      if headers["Accept-Encoding"] == nil {
        list = curl_slist_append(list, "Accept-Encoding: identity")
      }
      for field in headers where !field.name.equalsIgnoringASCIICase("User-Agent") {
        // libcurl reads "Name:" as "remove this header"; "Name;" sends it with an empty value.
        let line = field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)"
        list = curl_slist_append(list, line)
      }
      headerList = list
      _ = ok_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, list)
      if sendsSecrets {
        if let credentials = options.credentials {
          _ = ok_easy_setopt_long(handle, CURLOPT_HTTPAUTH, ok_auth_basic())
          _ = ok_easy_setopt_str(handle, CURLOPT_USERNAME, credentials.user)
          _ = ok_easy_setopt_str(handle, CURLOPT_PASSWORD, credentials.password)
        }
        if let netrc = options.netrcFile {
          _ = ok_easy_setopt_long(handle, CURLOPT_NETRC, Int(CURL_NETRC_OPTIONAL.rawValue))
          if !netrc.isEmpty { _ = ok_easy_setopt_str(handle, CURLOPT_NETRC_FILE, netrc) }
        }
      }
      guard sendsCookies else { return }
      if let jar = request.cookieJar {
        jar.attach(to: handle)
      } else if let file = options.cookieFile {
        _ = ok_easy_setopt_str(handle, CURLOPT_COOKIEFILE, file)
      }
    }
  }
#endif
