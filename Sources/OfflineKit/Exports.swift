// One import serves an app: the request options a source carries (headers, cookies,
// credentials, proxy, CA file, rate limit), the transports and their errors come with
// `import OfflineKit`.
@_exported import OfflineHTTP
