import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Progress of `reconcile` on standard error, only when it is a terminal: customers done, their rate, and the time
/// left where the input's size is known. Silent otherwise, so that logs and pipes get only the results.
struct Progress {
    private let enabled = isatty(STDERR_FILENO) == 1
    private let start = Date()
    private var lastShown = Date(timeIntervalSince1970: 0)
    /// The input's size in bytes when it is a regular file, for the time left.
    var totalBytes: Int?

    mutating func update(customers: Int, bytesRead: Int) {
        guard enabled else { return }
        let now = Date()
        guard now.timeIntervalSince(lastShown) >= 0.5 else { return }
        lastShown = now
        let elapsed = max(now.timeIntervalSince(start), 0.001)
        let rate = Double(customers) / elapsed
        var line = "\r\u{1B}[2Kreconcile: \(customers) customers, \(Int(rate)) per second"
        if let totalBytes, bytesRead > 0, totalBytes >= bytesRead {
            let left = elapsed * Double(totalBytes - bytesRead) / Double(bytesRead)
            line += ", about \(Int(left.rounded())) s left"
        }
        Output.usage(line, newline: false)
    }

    func finish(customers: Int) {
        guard enabled else { return }
        let elapsed = max(Date().timeIntervalSince(start), 0.001)
        Output.usage(
            "\r\u{1B}[2Kreconcile: \(customers) customers in \(Int(elapsed.rounded())) s, "
                + "\(Int(Double(customers) / elapsed)) per second")
    }
}
