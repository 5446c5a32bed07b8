/// Text from the input made safe to print for a person: nothing in it can end a line, move the cursor, colour the
/// terminal, reorder what is displayed or hide itself between the letters.
///
/// Every human-readable output of the tool (the table, the explanation, the messages on standard error) passes its
/// values through `escaped(_:)`, so that a product named `x\nentitlements: premium=true` is printed as
/// `x\nentitlements: premium=true` on one line and cannot forge a line of its own.
enum TerminalText {
    /// The text with each character that could spoof the display written as a visible escape: C0 controls (`\n`,
    /// `\r`, `\t`, otherwise `\u{1B}` and so on), DEL, C1 controls (U+0080 to U+009F, U+009B being a one-byte CSI),
    /// the line and paragraph separators (U+2028, U+2029), the bidirectional marks, embeddings, overrides and
    /// isolates (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069), and every other format character
    /// (general category Cf, as the toolchain's Unicode tables give it: U+200B zero-width space, U+2060 word joiner,
    /// U+FEFF, U+200D zero-width joiner, U+00AD soft hyphen, the tag characters and the rest), which a terminal shows
    /// as nothing, so that `premium\u{200B}` cannot pass for `premium`. An emoji sequence joined by U+200D is
    /// therefore printed as its parts with `\u{200D}` between them. A backslash is doubled, so that the escapes stay
    /// unambiguous. Everything else, letters of any script, emoji and variation selectors included, is kept.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isHidden(scalar): result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// JSON text with the characters `isSpoofing(_:)` names, other than the C0 controls that JSON escapes already,
    /// written as `\uXXXX` escapes: the same JSON value, safe to show in a terminal.
    ///
    /// The other format characters that `escaped(_:)` escapes for a person (U+200B, U+FEFF, U+200D...) are kept as
    /// they are: a program reads the value itself, and they can neither end a line nor reorder the display.
    ///
    /// Such characters can only stand inside JSON strings, where `\uXXXX` means the same character; the line feeds
    /// and spaces of pretty-printed JSON, outside strings, are kept.
    static func escapedJSON(_ json: String) -> String {
        func needsEscape(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x20 && isSpoofing(scalar) }
        guard json.unicodeScalars.contains(where: needsEscape) else { return json }
        var result = ""
        result.reserveCapacity(json.utf8.count + 16)
        for scalar in json.unicodeScalars {
            if needsEscape(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\\" || isHidden(scalar)
    }

    /// Whether `escaped(_:)` writes a scalar as an escape: one that `isSpoofing(_:)`, or a format character (general
    /// category Cf), which a terminal shows as nothing.
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        isSpoofing(scalar) || scalar.properties.generalCategory == .format
    }

    /// Whether a scalar can end a line, drive the terminal or reorder the display.
    static func isSpoofing(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
