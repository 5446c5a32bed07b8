#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The tool's two output streams, written with `write(2)` so that a failed write is an error the tool reports, never
/// a trap: standard output closed or a full device exit 1 with a message. A pipe whose reader has gone
/// (`entitlements rebuild | head -1`) ends the tool quietly with status 0: the reader took what it wanted, and the
/// pipeline's status is the reader's (the tool ignores SIGPIPE, see `main.swift`).
enum Output {
    /// Writes `text` and a line feed to standard output, or throws what stopped it.
    static func print(_ text: String) throws(OutputError) {
        try standardOutput(text + "\n")
    }

    /// Writes `text` as it is to standard output, or throws what stopped it.
    static func standardOutput(_ text: String) throws(OutputError) {
        if let code = write(text, to: STDOUT_FILENO) {
            throw OutputError(code: code)
        }
    }

    /// Writes bytes to standard output, or throws what stopped it.
    static func standardOutput(_ bytes: [UInt8]) throws(OutputError) {
        let code = bytes.withUnsafeBufferPointer { write($0, to: STDOUT_FILENO) }
        if let code { throw OutputError(code: code) }
    }

    /// Writes one message for a person to standard error, its control and bidirectional characters escaped
    /// (`TerminalText`), so that input it quotes cannot forge a line or drive the terminal.
    static func error(_ text: String) {
        usage(TerminalText.escaped(text))
    }

    /// Writes trusted text, such as the usage, to standard error as it is. A failure is ignored: there is nowhere
    /// left to report it, and the exit status already says whether the command succeeded.
    static func usage(_ text: String, newline: Bool = true) {
        _ = write(newline ? text + "\n" : text, to: STDERR_FILENO)
    }

    /// Writes `text` to the file at `path`, created or truncated in place: never replaced by a new file, so that a
    /// symbolic link, a FIFO or a device such as /dev/null stays what it is.
    static func write(_ text: String, toPath path: String, what: String) throws(InputError) {
        let descriptor = systemOpen(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw InputError("cannot write \(what) to \(Input.displayName(path)): \(describe(errno: errno))")
        }
        defer { close(descriptor) }
        if let code = write(text, to: descriptor) {
            throw InputError("cannot write \(what) to \(Input.displayName(path)): \(describe(errno: code))")
        }
    }

    private static func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        #if canImport(Darwin)
            Darwin.open(path, flags, mode)
        #elseif canImport(Musl)
            Musl.open(path, flags, mode)
        #else
            Glibc.open(path, flags, mode)
        #endif
    }

    /// Writes all of `text` to a file descriptor, retrying after interruptions and short writes; the `errno` of a
    /// failure, or nil.
    private static func write(_ text: String, to descriptor: Int32) -> Int32? {
        var text = text
        return text.withUTF8 { write($0, to: descriptor) }
    }

    private static func write(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> Int32? {
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

/// Standard output could not be written: the tool exits 1 with this message on standard error, or quietly with 0
/// when the reader of a pipe has gone (`readerGone`).
struct OutputError: Error {
    var code: Int32

    var readerGone: Bool { code == EPIPE }
    var message: String { "cannot write to standard output: \(Output.describe(errno: code))" }
}
