extension NginxServer.Options {
  /// These options, changed to run nginx inside `namespace` and listen on its address.
  ///
  /// The readiness probe of `NginxServer.start()` then connects from the host to
  /// `namespace.namespaceAddress`, and `baseURL` points there.
  ///
  /// - Parameter namespace: The namespace to serve from; it must outlive the server.
  public func inside(_ namespace: NetworkNamespace) -> Self {
    var options = self
    options.listenAddress = namespace.namespaceAddress
    options.launcher = namespace.launcher
    return options
  }
}
