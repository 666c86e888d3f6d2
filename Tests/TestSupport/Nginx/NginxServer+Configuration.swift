import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension NginxServer {
  /// The files and directories of one server instance, all inside its private directory.
  struct Layout: Sendable {
    /// The private directory, passed to nginx as its prefix (`-p`).
    var prefix: URL

    var configuration: URL { prefix.appendingPathComponent("nginx.conf") }
    var pidFile: URL { prefix.appendingPathComponent("nginx.pid") }
    var errorLog: URL { prefix.appendingPathComponent("error.log") }
    var stderrLog: URL { prefix.appendingPathComponent("stderr.log") }
    var accessLog: URL { prefix.appendingPathComponent("access.log") }
    var certificate: URL { prefix.appendingPathComponent("cert.pem") }
    var privateKey: URL { prefix.appendingPathComponent("key.pem") }
    func temp(_ name: String) -> URL { prefix.appendingPathComponent("temp-\(name)") }
  }

  /// The access log format: the fields of `AccessLogEntry`, tab-separated, in that order.
  ///
  /// `escape=default` turns tabs, quotes and other control bytes inside values into `\xHH`,
  /// so a tab always separates fields.
  static let logFormat = [
    "$request_method", "$request_uri", "$status", "$body_bytes_sent", "$http_range",
    "$http_if_range", "$http_user_agent", "$http_accept_encoding", "$server_protocol",
  ].joined(separator: "\\t")

  /// The fields `Options.logsConnections` adds after those of ``logFormat``.
  static let connectionLogFields = [
    "$connection", "$connection_requests", "$msec", "$request_time",
  ]
  .joined(separator: "\\t")

  /// The complete `nginx.conf` for serving `root` on `port` with `options`.
  static func configuration(
    root: URL, port: Int, options: Options, layout: Layout
  ) -> String {
    var http: [String] = [
      "types { }",
      "default_type application/octet-stream;",
      "log_format offlinekit escape=default '\(logFormat)"
        + (options.logsConnections ? "\\t\(connectionLogFields)" : "") + "';",
      "access_log \(quoted(layout.accessLog)) offlinekit;",
      "client_body_temp_path \(quoted(layout.temp("client-body")));",
      "proxy_temp_path \(quoted(layout.temp("proxy")));",
      "fastcgi_temp_path \(quoted(layout.temp("fastcgi")));",
      "uwsgi_temp_path \(quoted(layout.temp("uwsgi")));",
      "scgi_temp_path \(quoted(layout.temp("scgi")));",
      "sendfile on;",
      "tcp_nopush on;",
      "keepalive_requests 10000;",
      "etag \(options.etag ? "on" : "off");",
    ]
    if let maxRanges = options.maxRanges { http.append("max_ranges \(maxRanges);") }
    if !options.loggedHeaders.isEmpty {
      http.append(
        "log_format offlinekit_headers escape=default '\(headerLogFormat(options.loggedHeaders))';")
      http.append("access_log \(quoted(layout.headerLog)) offlinekit_headers;")
    }
    if !options.httpConfiguration.isEmpty { http.append(options.httpConfiguration) }

    var server = [
      options.tls
        ? "listen \(options.listenAddress):\(port) ssl http2;"
        : "listen \(options.listenAddress):\(port);",
      "server_name localhost;",
      "root \(quoted(root));",
      "autoindex off;",
    ]
    if let rate = options.limitRate { server.append("limit_rate \(rate);") }
    if options.tls {
      server.append("ssl_certificate \(quoted(layout.certificate));")
      server.append("ssl_certificate_key \(quoted(layout.privateKey));")
    }
    if !options.extraLocations.isEmpty { server.append(options.extraLocations) }

    let main = [
      "daemon off;",
      "master_process on;",
      "worker_processes 1;",
      geteuid() == 0 ? "user root;" : nil,
      "pid \(quoted(layout.pidFile));",
      "error_log \(quoted(layout.errorLog)) notice;",
      "events { worker_connections 1024; }",
    ].compactMap { $0 }

    return """
      \(main.joined(separator: "\n"))
      http {
        \(http.joined(separator: "\n  "))
        server {
          \(server.joined(separator: "\n    "))
        }
      }

      """
  }

  /// A path as an nginx string literal.
  private static func quoted(_ url: URL) -> String {
    let escaped = url.path.replacingOccurrences(of: "\\", with: "\\\\")
      .replacingOccurrences(of: "\"", with: "\\\"")
    return "\"\(escaped)\""
  }

  /// Writes a self-signed certificate and key for 127.0.0.1 and `localhost` with `openssl`:
  /// a blocking run of a short tool that depends on nothing in this process, so that
  /// `NginxServer.init` stays synchronous.
  static func makeCertificate(layout: Layout) throws {
    try ProcessRunner.blocking(
      "/usr/bin/openssl",
      [
        "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
        "-keyout", layout.privateKey.path, "-out", layout.certificate.path, "-days", "7",
        "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
      ])
  }
}
