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
    /// A directory, a file that cannot be opened and an empty document each get a message of their own.
    static func read(_ path: String, limit: Int, what: String = "FILE") throws(InputError) -> Data {
        let name = displayName(path)
        let descriptor = try open(path, what: what)
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
            if count == 0 { break }
            guard data.count + count <= limit else { throw tooLarge(name, limit: limit, size: nil) }
            data.append(contentsOf: buffer[..<count])
        }
        guard !data.contains(where: { !isJSONWhitespace($0) }) else { return data }
        throw InputError(
            "\(name) is empty\(data.isEmpty ? "" : " (only white space)"); \(what) must hold a JSON document")
    }

    /// `path` as messages name it.
    static func displayName(_ path: String) -> String {
        path == "-" ? "standard input" : "\"\(TerminalText.escaped(path))\""
    }

    /// A descriptor open for reading `path` (standard input for `-`), or a one-line message: no such file, a
    /// directory, permission denied.
    static func open(_ path: String, what: String = "FILE") throws(InputError) -> Int32 {
        if path == "-" { return STDIN_FILENO }
        let name = displayName(path)
        let descriptor = systemOpen(path)
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case ENOENT:
                throw InputError("\(name) does not exist; \(what) is the path of a file, or - for standard input")
            case EACCES: throw InputError("\(name) cannot be read: permission denied")
            default: throw InputError("cannot open \(name): \(Output.describe(errno: code))")
            }
        }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            close(descriptor)
            throw InputError("\(name) is a directory; \(what) is the path of a file, or - for standard input")
        }
        return descriptor
    }

    private static func systemOpen(_ path: String) -> Int32 {
        #if canImport(Darwin)
            Darwin.open(path, O_RDONLY | O_CLOEXEC)
        #elseif canImport(Musl)
            Musl.open(path, O_RDONLY | O_CLOEXEC)
        #else
            Glibc.open(path, O_RDONLY | O_CLOEXEC)
        #endif
    }

    static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
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
}
