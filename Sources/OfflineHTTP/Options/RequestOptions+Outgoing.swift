extension RequestOptions {
  /// The header fields one hop of a request sends: these options' fields, then the
  /// request's own (which replace the options' fields of the same name), without the
  /// secrets when the hop may not carry them (after a redirect left the origin, RFC 9110,
  /// section 15.4, unless ``sendsSecretsAcrossRedirects``). Every transport uses it, so all
  /// send the same fields.
  func outgoingHeaders(adding requestHeaders: HTTPHeaders, sendsSecrets: Bool) -> HTTPHeaders {
    var fields = headers.filter { option in
      !requestHeaders.contains { $0.name.equalsIgnoringASCIICase(option.name) }
    }
    fields.append(contentsOf: requestHeaders)
    if !sendsSecrets {
      fields.removeAll { field in
        isSecret(headerNamed: field.name)
          || RedirectPolicy.credentialHeaders.contains { $0.equalsIgnoringASCIICase(field.name) }
      }
    }
    return HTTPHeaders(fields)
  }
}
