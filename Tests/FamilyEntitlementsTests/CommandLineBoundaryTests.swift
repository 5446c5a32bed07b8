import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// The `entitlements` tool at the trust boundary: output that cannot be written, input read as streams with a limit,
/// and strings from the input that try to drive the terminal.
@Suite(
    "The entitlements tool at the trust boundary",
    .enabled(if: EntitlementsTool.executable != nil, "the entitlements executable is built"))
struct CommandLineBoundaryTests {
    static let instant = "1770000000000"

    /// A history holding one refunded non-consumable named `productId`.
    static func revokedProductHistory(named productId: String) throws -> Data {
        var purchase = TransactionBuilder.oneTime(.stickers, purchased: date(milliseconds: 1_767_225_600_000))
        purchase.productId = productId
        let refunded = TransactionBuilder.refunded(purchase, at: date(milliseconds: 1_768_000_000_000))
        return try History(transactions: [refunded]).jsonData()
    }

    // MARK: - Output that cannot be written

    struct OutputCase: CustomTestStringConvertible, Sendable {
        var name: String
        var arguments: [String]
        var testDescription: String { name }

        static let all: [OutputCase] = [
            OutputCase(name: "rebuild (table)", arguments: ["rebuild"]),
            OutputCase(name: "rebuild --format json", arguments: ["rebuild", "--format", "json"]),
            OutputCase(name: "explain", arguments: ["explain"]),
            OutputCase(name: "help", arguments: ["help"]),
        ]
    }

    @Test("standard output on a full device (/dev/full) -> exit 1 with a message", arguments: OutputCase.all)
    func fullDevice(_ row: OutputCase) throws {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"), "/dev/full exists")
        let result = try EntitlementsTool.run(row.arguments, standardOutput: full)
        #expect(result.exitedNormally, "killed by signal \(result.status)")
        #expect(result.status == 1)
        #expect(result.standardError.contains("cannot write to standard output: No space left on device"))
    }

    @Test(
        "standard output a pipe whose reader has closed (| head) -> exit 0 quietly, no message",
        arguments: OutputCase.all)
    func closedPipe(_ row: OutputCase) throws {
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let result = try EntitlementsTool.run(row.arguments, standardOutput: pipe.fileHandleForWriting)
        #expect(result.exitedNormally, "killed by signal \(result.status)")
        #expect(result.status == 0)
        #expect(!result.standardError.contains("Broken pipe"), "\(result.standardError)")
        #expect(!result.standardError.contains("cannot write"), "\(result.standardError)")
    }

    @Test("standard output closed -> exit 1 with a message", arguments: OutputCase.all)
    func closedStandardOutput(_ row: OutputCase) throws {
        let result = try EntitlementsTool.runShell(#"exec "$0" "$@" >&-"#, row.arguments)
        #expect(result.exitedNormally, "killed by signal \(result.status)")
        #expect(result.status == 1)
        #expect(result.standardError.contains("cannot write to standard output"))
    }

    // MARK: - Inputs as streams, with a limit

    struct StreamCase: CustomTestStringConvertible, Sendable {
        var name: String
        /// A script for `/bin/sh -c` (`$0` is the tool, `$1` a history file, `$2` a free path in a new folder).
        var script: String
        var status: Int32
        var standardError: String = ""
        var standardOutput: String = ""
        var testDescription: String { name }

        static let all: [StreamCase] = [
            StreamCase(
                name: "a FIFO -> read as a stream",
                script: #"mkfifo "$2" && { cat "$1" > "$2" & } && "$0" rebuild "$2""#
                    + " --as-of \(instant)",
                status: 0, standardOutput: "org.familyentitlements.demo.stickers"),
            StreamCase(
                name: "/dev/stdin -> read as a stream",
                script: #""$0" explain /dev/stdin --as-of "# + instant
                    + #" < "$1""#,
                status: 0, standardOutput: "org.familyentitlements.demo.stickers"),
            StreamCase(
                name: "/dev/null -> an empty document, bad input 1, not permission denied",
                script: #""$0" rebuild /dev/null"#, status: 1,
                standardError: "\"/dev/null\" is empty; FILE must hold a JSON document"),
            StreamCase(
                name: "decode of /dev/null -> an empty document, bad input 1", script: #""$0" decode /dev/null"#,
                status: 1, standardError: "\"/dev/null\" is empty"),
            StreamCase(
                name: "a directory -> bad input 1 naming it", script: #"mkdir "$2" && "$0" decode "$2""#, status: 1,
                standardError: "is a directory; FILE is the path of a file"),
            StreamCase(
                name: "a FIFO longer than --max-input-bytes -> refused once past the limit",
                script: #"mkfifo "$2" && { head -c 200000 /dev/zero > "$2" 2>/dev/null & } && "$0" decode "$2""#
                    + " --max-input-bytes 1000",
                status: 1, standardError: "is larger than the input limit of 1000 bytes; pass --max-input-bytes N"),
            StreamCase(
                name: "standard input longer than --max-input-bytes -> refused",
                script: #"head -c 5000 /dev/zero | "$0" rebuild - --max-input-bytes 4096"#, status: 1,
                standardError: "standard input is larger than the input limit of 4096 bytes"),
            StreamCase(
                name: "a file longer than --max-input-bytes -> refused before it is read, naming its size",
                script: #""$0" rebuild "$1" --max-input-bytes 100"#, status: 1,
                standardError: "is larger than the input limit of 100 bytes (it has "),
            StreamCase(
                name: "a catalog longer than --max-input-bytes -> refused",
                script: #"head -c 300 /dev/zero > "$2" && "$0" rebuild --catalog "$2" --max-input-bytes 200"#,
                status: 1, standardError: "is larger than the input limit of 200 bytes (it has 300)"),
            StreamCase(
                name: "a file of exactly --max-input-bytes -> read",
                script: #""$0" rebuild "$1" --as-of "# + instant + #" --max-input-bytes "$(wc -c < "$1" | tr -d ' ')""#,
                status: 0, standardOutput: "org.familyentitlements.demo.stickers"),
            StreamCase(
                name: "a sparse file one byte over 64 MiB -> refused by the default limit, unread",
                script: #"dd if=/dev/null of="$2" bs=1 seek=67108865 2>/dev/null && "$0" decode "$2""#, status: 1,
                standardError: "is larger than the input limit of 67108864 bytes (it has 67108865)"),
            StreamCase(
                name: "--max-input-bytes 0 -> usage error 2", script: #""$0" decode "$1" --max-input-bytes 0"#,
                status: 2, standardError: "--max-input-bytes takes a whole number of bytes, at least 1"),
        ]
    }

    @Test(arguments: StreamCase.all)
    func streams(_ row: StreamCase) throws {
        let history = try EntitlementsTool.temporaryFile(
            Self.revokedProductHistory(named: DemoProduct.stickers.productId.rawValue))
        let folder = history.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try EntitlementsTool.runShell(
            row.script, [history.path, folder.appendingPathComponent("other").path])
        #expect(result.exitedNormally)
        #expect(result.status == row.status, "stderr: \(result.standardError)")
        if !row.standardError.isEmpty {
            #expect(result.standardError.contains(row.standardError), "stderr: \(result.standardError)")
        }
        if !row.standardOutput.isEmpty {
            #expect(result.standardOutput.contains(row.standardOutput), "stdout: \(result.standardOutput)")
        }
    }

    @Test(
        "process substitution <(...) -> read as a stream",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash")))
    func processSubstitution() throws {
        let history = try EntitlementsTool.temporaryFile(
            Self.revokedProductHistory(named: DemoProduct.stickers.productId.rawValue))
        defer { try? FileManager.default.removeItem(at: history.deletingLastPathComponent()) }
        let result = try EntitlementsTool.runShell(
            #"exec /bin/bash -c '"$0" rebuild <(cat "$1") --as-of "$2"' "$0" "$1" "$2""#, [history.path, Self.instant])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardOutput.contains(DemoProduct.stickers.productId.rawValue))
    }

    // MARK: - No spoofing

    struct SpoofCase: CustomTestStringConvertible, Sendable {
        var name: String
        /// A product id holding the characters.
        var productId: String
        /// How the tool must print it to a person.
        var printed: String
        var testDescription: String { name }

        static let all: [SpoofCase] = [
            SpoofCase(
                name: "a line feed cannot forge the entitlements line", productId: "x\nentitlements: premium=true",
                printed: #"x\nentitlements: premium=true"#),
            SpoofCase(name: "a carriage return", productId: "paid\rfree", printed: #"paid\rfree"#),
            SpoofCase(name: "a tab", productId: "a\tb", printed: #"a\tb"#),
            SpoofCase(name: "NUL", productId: "a\u{0}b", printed: #"a\u{0}b"#),
            SpoofCase(
                name: "an ANSI colour escape", productId: "\u{1B}[32mactive\u{1B}[0m",
                printed: #"\u{1B}[32mactive\u{1B}[0m"#),
            SpoofCase(
                name: "an ANSI cursor-up escape", productId: "x\u{1B}[1A\u{1B}[2K", printed: #"x\u{1B}[1A\u{1B}[2K"#),
            SpoofCase(name: "DEL", productId: "a\u{7F}b", printed: #"a\u{7F}b"#),
            SpoofCase(
                name: "a C1 control sequence introducer (U+009B)", productId: "a\u{9B}31m", printed: #"a\u{9B}31m"#),
            SpoofCase(name: "next line (U+0085)", productId: "a\u{85}b", printed: #"a\u{85}b"#),
            SpoofCase(
                name: "a right-to-left override (U+202E)", productId: "premium\u{202E}eurt=",
                printed: #"premium\u{202E}eurt="#),
            SpoofCase(
                name: "embeddings and a pop (U+202A, U+202B, U+202C, U+202D)",
                productId: "a\u{202A}b\u{202B}c\u{202C}d\u{202D}", printed: #"a\u{202A}b\u{202B}c\u{202C}d\u{202D}"#),
            SpoofCase(
                name: "isolates (U+2066 to U+2069)", productId: "\u{2066}a\u{2067}b\u{2068}c\u{2069}",
                printed: #"\u{2066}a\u{2067}b\u{2068}c\u{2069}"#),
            SpoofCase(
                name: "marks (U+200E, U+200F, U+061C)", productId: "a\u{200E}b\u{200F}c\u{61C}",
                printed: #"a\u{200E}b\u{200F}c\u{61C}"#),
            SpoofCase(name: "a line separator (U+2028)", productId: "a\u{2028}b", printed: #"a\u{2028}b"#),
            SpoofCase(
                name: "a zero-width space (U+200B, Cf) cannot pass for another name", productId: "premium\u{200B}",
                printed: #"premium\u{200B}"#),
            SpoofCase(name: "a word joiner (U+2060, Cf)", productId: "pre\u{2060}mium", printed: #"pre\u{2060}mium"#),
            SpoofCase(
                name: "a byte order mark inside a name (U+FEFF, Cf)", productId: "pre\u{FEFF}mium",
                printed: #"pre\u{FEFF}mium"#),
            SpoofCase(
                name: "an emoji sequence joined by U+200D (Cf) prints as its parts",
                productId: "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", printed: #"👨\u{200D}👩\u{200D}👧"#),
            SpoofCase(name: "a soft hyphen (U+00AD, Cf)", productId: "pre\u{AD}mium", printed: #"pre\u{AD}mium"#),
            SpoofCase(
                name: "a Mongolian vowel separator and an inhibitor (U+180E, U+206A, Cf)",
                productId: "a\u{180E}b\u{206A}c", printed: #"a\u{180E}b\u{206A}c"#),
            SpoofCase(
                name: "tag characters (U+E0001, U+E0041, Cf)", productId: "a\u{E0001}\u{E0041}",
                printed: #"a\u{E0001}\u{E0041}"#),
            SpoofCase(
                name: "an interlinear annotation and an Arabic number sign (U+FFF9, U+0600, Cf)",
                productId: "a\u{FFF9}b\u{600}", printed: #"a\u{FFF9}b\u{600}"#),
            SpoofCase(
                name: "a variation selector (U+FE0F, Mn, not Cf) is kept", productId: "\u{2764}\u{FE0F}",
                printed: "\u{2764}\u{FE0F}"),
            SpoofCase(
                name: "a backslash, doubled so escapes stay unambiguous", productId: #"a\nb"#, printed: #"a\\nb"#),
            SpoofCase(name: "letters of other scripts are kept", productId: "café 日本 ثلاثة", printed: "café 日本 ثلاثة"),
        ]
    }

    /// Whether a scalar could spoof a terminal: the test's own list, independent of the tool's. JSON escapes these.
    static func isSpoofing(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
            || (0x2066...0x2069).contains(scalar.value)
            || [0x061C, 0x200E, 0x200F, 0x2028, 0x2029].contains(scalar.value)
    }

    /// Whether a scalar must not reach a person as it is: one that could spoof a terminal, or a format character
    /// (general category Cf), which shows as nothing.
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        isSpoofing(scalar) || scalar.properties.generalCategory == .format
    }

    /// The scalars of `text` that could spoof a terminal, other than the line feeds that end its lines.
    static func spoofing(in text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { $0 != "\n" && isSpoofing($0) }
    }

    /// The scalars of `text` that a person must not be shown as they are, other than the line feeds.
    static func hidden(in text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { $0 != "\n" && isHidden($0) }
    }

    @Test(arguments: SpoofCase.all)
    func humanReadableOutputIsEscaped(_ row: SpoofCase) throws {
        let history = try Self.revokedProductHistory(named: row.productId)
        let table = try EntitlementsTool.run(["rebuild", "-", "--as-of", Self.instant], input: history)
        #expect(table.status == 0, "\(table.standardError)")
        #expect(table.standardOutput.contains(row.printed), "\(table.standardOutput)")
        #expect(Self.hidden(in: table.standardOutput).isEmpty)
        let lines = table.standardOutput.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("entitlements:") }.count == 1, "\(table.standardOutput)")
        #expect(lines.filter { $0.hasPrefix("entitlements:") }.allSatisfy { $0.contains("=false") })

        let explain = try EntitlementsTool.run(["explain", "-", "--as-of", Self.instant], input: history)
        #expect(explain.status == 0)
        #expect(explain.standardOutput.contains(row.printed + ": revoked"), "\(explain.standardOutput)")
        #expect(Self.hidden(in: explain.standardOutput).isEmpty)

        let token = try JSONSerialization.data(withJSONObject: ["transactionId": "1", "appAccountToken": row.productId])
        let decode = try EntitlementsTool.run(["decode", "-"], input: token)
        #expect(decode.status == 1)
        #expect(decode.standardError.contains("invalid_uuid"))
        #expect(decode.standardError.contains(row.printed), "\(decode.standardError)")
        #expect(Self.hidden(in: decode.standardError).isEmpty)

        let svg = try EntitlementsTool.run(
            ["explain", "-", "--as-of", Self.instant, "--format", "svg"], input: history)
        #expect(svg.status == 0)
        #expect(Self.hidden(in: svg.standardOutput).isEmpty)
    }

    @Test(
        "JSON stays JSON with the same values, escapes controls and bidi marks, keeps other format characters",
        arguments: SpoofCase.all)
    func jsonOutputKeepsTheValue(_ row: SpoofCase) throws {
        let history = try Self.revokedProductHistory(named: row.productId)
        let result = try EntitlementsTool.run(
            ["rebuild", "-", "--as-of", Self.instant, "--format", "json"], input: history)
        #expect(result.status == 0)
        #expect(Self.spoofing(in: result.standardOutput).isEmpty)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let products = try #require(object["products"] as? [[String: Any]])
        #expect(products.first?["productId"] as? String == row.productId)
        let transaction = try TransactionPayload(transactionId: "1", productId: row.productId).jsonData()
        let decode = try EntitlementsTool.run(["decode", "-"], input: transaction)
        #expect(decode.status == 0)
        #expect(Self.spoofing(in: decode.standardOutput).isEmpty)
        let decoded = try #require(
            try JSONSerialization.jsonObject(with: Data(decode.standardOutput.utf8)) as? [String: Any])
        #expect((decoded["document"] as? [String: Any])?["productId"] as? String == row.productId)
        // JSON keeps its own escaping: a format character that is neither a control nor bidirectional is the
        // character itself, for a program to read.
        for scalar in row.productId.unicodeScalars where !Self.isSpoofing(scalar) && Self.isHidden(scalar) {
            #expect(result.standardOutput.unicodeScalars.contains(scalar), "U+\(String(scalar.value, radix: 16))")
            #expect(decode.standardOutput.unicodeScalars.contains(scalar), "U+\(String(scalar.value, radix: 16))")
        }
    }

    @Test("a granted premium\\u{200B} cannot read as premium=true beside the revoked premium")
    func zeroWidthSpaceCannotForgeAnEntitlement() throws {
        var revoked = TransactionBuilder.oneTime(.stickers, purchased: date(milliseconds: 1_767_225_600_000))
        revoked.productId = "premium"
        var granted = TransactionBuilder.oneTime(.stickers, purchased: date(milliseconds: 1_767_225_600_001))
        granted.productId = "premium\u{200B}"
        let history = try History(transactions: [
            TransactionBuilder.refunded(revoked, at: date(milliseconds: 1_768_000_000_000)), granted,
        ]).jsonData()
        let table = try EntitlementsTool.run(["rebuild", "-", "--as-of", Self.instant], input: history)
        #expect(table.status == 0, "\(table.standardError)")
        let line = try #require(table.standardOutput.split(separator: "\n").first { $0.hasPrefix("entitlements:") })
        #expect(line == #"entitlements: premium=false premium\u{200B}=true"#)
        #expect(!line.contains("premium=true"))
    }

    @Test("the toolchain's general categories are Unicode 17.0's: 170 format (Cf) scalars, none assigned later")
    func unicodeVersionOfTheFormatCategory() throws {
        var newest = (major: 0, minor: 0)
        var format: [UInt32] = []
        for value in UInt32(0)...0x10_FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if let age = scalar.properties.age, (age.major, age.minor) > newest { newest = (age.major, age.minor) }
            if scalar.properties.generalCategory == .format { format.append(value) }
        }
        // A toolchain with newer Unicode tables fails here: re-check the escaping of format characters and
        // docs/cli.md, then record the new version, count and scalars.
        #expect(newest == (17, 0), "the newest scalar is of Unicode \(newest.major).\(newest.minor)")
        #expect(format.count == 170)
        let distortedFace = try #require(Unicode.Scalar(0x1FAEA), "U+1FAEA DISTORTED FACE, new in Unicode 17.0")
        #expect(distortedFace.properties.age.map { [$0.major, $0.minor] } == [17, 0])
        // U+13439 EGYPTIAN HIEROGLYPH INSERT AT MIDDLE, a format character new in Unicode 15.0.
        let insertAtMiddle = try #require(Unicode.Scalar(0x13439))
        #expect(insertAtMiddle.properties.generalCategory == .format)
        #expect(insertAtMiddle.properties.age.map { [$0.major, $0.minor] } == [15, 0])
        for value: UInt32 in [0x00AD, 0x200B, 0x200D, 0x2060, 0xFEFF, 0xE0001, 0x1D173] {
            #expect(format.contains(value), "U+\(String(value, radix: 16, uppercase: true)) is Cf")
        }
        for value: UInt32 in [0x2028, 0xFE0F, 0x034F, 0x1F3FB] {
            #expect(!format.contains(value), "U+\(String(value, radix: 16, uppercase: true)) is not Cf")
        }
    }
}
