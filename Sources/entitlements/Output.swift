#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The tool's two output streams, written with `write(2)` so that a failed write is an error the tool reports, never
/// a trap: standard output closed, a full device, a pipe whose reader has gone (the tool ignores SIGPIPE, see
/// `main.swift`).
enum Output {
    /// Writes `text` and a line feed to standard output, or throws what stopped it.
    static func print(_ text: String) throws(OutputError) {
        if let code = write(text + "\n", to: STDOUT_FILENO) {
            throw OutputError(message: "cannot write to standard output: \(describe(errno: code))")
        }
    }

    /// Writes one message for a person to standard error, its control and bidirectional characters escaped
    /// (`TerminalText`), so that input it quotes cannot forge a line or drive the terminal.
    static func error(_ text: String) {
        usage(TerminalText.escaped(text))
    }

    /// Writes trusted text, such as the usage, to standard error as it is. A failure is ignored: there is nowhere
    /// left to report it, and the exit status already says whether the command succeeded.
    static func usage(_ text: String) {
        _ = write(text + "\n", to: STDERR_FILENO)
    }

    /// Writes all of `text` to a file descriptor, retrying after interruptions and short writes; the `errno` of a
    /// failure, or nil.
    private static func write(_ text: String, to descriptor: Int32) -> Int32? {
        var text = text
        return text.withUTF8 { bytes -> Int32? in
            guard let base = bytes.baseAddress else { return nil }
            var offset = 0
            while offset < bytes.count {
                let written = systemWrite(descriptor, base + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }

    private static func systemWrite(_ descriptor: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
        #if canImport(Darwin)
            Darwin.write(descriptor, bytes, count)
        #elseif canImport(Musl)
            Musl.write(descriptor, bytes, count)
        #else
            Glibc.write(descriptor, bytes, count)
        #endif
    }

    /// The system's words for an `errno` value.
    static func describe(errno code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

/// Standard output could not be written; the tool exits 1 with this message on standard error.
struct OutputError: Error {
    var message: String
}
