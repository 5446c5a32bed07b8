import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading one input document: a file, standard input (`-`), or any stream a path names (a FIFO, `/dev/stdin`, a shell's
/// process substitution such as `<(curl ...)`), never more than a limit.
enum Input {
    /// The most bytes one document may have unless `--max-input-bytes` says otherwise: 64 MiB.
    static let defaultLimit = 64 << 20

    /// The bytes at `path`, or of standard input for `-`, read as a stream until its end.
    ///
    /// A document larger than `limit` is refused with a message naming the limit and the option that raises it: a
    /// regular file before any of it is read, a stream as soon as it passes the limit, so that memory stays bounded.
    static func read(_ path: String, limit: Int) throws(InputError) -> Data {
        let name = path == "-" ? "standard input" : path
        let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputError("cannot read \(name): \(Output.describe(errno: errno))") }
        defer { if path != "-" { close(descriptor) } }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > limit {
            throw tooLarge(name, limit: limit, size: Int(status.st_size))
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw InputError("cannot read \(name): \(Output.describe(errno: errno))")
            }
            if count == 0 { return data }
            guard data.count + count <= limit else { throw tooLarge(name, limit: limit, size: nil) }
            data.append(contentsOf: buffer[..<count])
        }
    }

    private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Darwin)
            Darwin.read(descriptor, buffer, count)
        #elseif canImport(Musl)
            Musl.read(descriptor, buffer, count)
        #else
            Glibc.read(descriptor, buffer, count)
        #endif
    }

    private static func tooLarge(_ name: String, limit: Int, size: Int?) -> InputError {
        InputError(
            "\(name) is larger than the input limit of \(limit) bytes"
                + (size.map { " (it has \($0))" } ?? "") + "; pass --max-input-bytes N to read up to N bytes")
    }

    /// Parses the value of `--max-input-bytes`: a whole number of bytes, at least 1.
    static func parseLimit(_ text: String) throws(UsageError) -> Int {
        guard let limit = Int(text), limit >= 1 else {
            throw UsageError("--max-input-bytes takes a whole number of bytes, at least 1, not \"\(text)\"")
        }
        return limit
    }
}
