import FamilyEntitlements
import Foundation
import Testing

/// Every code the library publishes, of every type: raw values are snake_case, unique within their type, and what
/// `description` prints.
struct CodeTests {
    struct CodeSet: CustomTestStringConvertible, Sendable {
        var type: String
        var rawValues: [String]
        var descriptions: [String]
        var testDescription: String { "\(type): \(rawValues.count) codes" }

        init<Code: OpenCode>(_ codes: [Code]) {
            type = String(reflecting: Code.self)
            rawValues = codes.map(\.rawValue)
            descriptions = codes.map(\.description)
        }
    }

    static let all: [CodeSet] = [
        CodeSet([
            PayloadDecodingError.Code.malformedJSON, .wrongType, .missingValue, .numberOutOfRange, .invalidDate,
            .invalidUUID, .invalidValue, .malformedJWS, .invalidBase64, .unrecognisedDocument, .unknownKey,
            .unsupportedVersion, .duplicateMember,
        ]),
        CodeSet([PayloadDecodingWarning.Code.unsignedContentsIgnored, .undecodableSignedString, .partialHistory]),
        CodeSet([PayloadEncodingError.Code.unencodableValue]),
        CodeSet([
            MoneyError.Code.currencyMismatch, .overflow, .unknownCurrency, .notWholeMinorUnits, .notWholeMilliunits,
        ]),
        CodeSet([NotificationPolicy.ConfigurationError.Code.appAppleIdRequired, .bundleIdEmpty]),
        CodeSet([
            NotificationRejection.Code.wrongEnvironment, .wrongBundleId, .wrongAppAppleId, .nestedEnvironmentMismatch,
            .nestedBundleIdMismatch, .nestedNotDecoded, .missingNotificationType, .missingAppIdentity,
            .signatureInvalid, .malformedJWS, .verificationUnavailable, .undecodable,
        ]),
        CodeSet([
            TransactionRejection.Code.wrongEnvironment, .wrongBundleId, .wrongAppAppleId, .signatureInvalid,
            .malformedJWS, .verificationUnavailable, .verificationNotImplemented, .undecodable,
        ]),
        CodeSet([
            Diagnostic.Code.foreignEnvironment, .missingEnvironment, .incompleteNotification, .incompleteTransaction,
            .untrustedSnapshot, .signedAfterInstant, .impossibleValue, .foreignBundle, .mixedBundles,
            .catalogTypeMismatch, .uncataloguedProduct, .inconsistentTransaction, .conflictingSnapshots,
            .unknownNotificationType, .unknownNotificationSubtype, .unknownOwnership, .unknownProductType,
            .unknownRevocationType, .unknownRevocationReason, .unknownOfferType, .unknownAutoRenewStatus,
            .familySharedConsumable, .familySharedNonRenewing, .missingDuration, .appleStatusDisagrees,
            .missingExpiresDate, .unexpectedRevoke,
            .inexactPrice, .undecodableSignedString, .undecodedSignedString, .unsignedContentsIgnored, .undatedEntry,
            .invalidInstant, .partialHistory,
        ]),
        CodeSet([AccountLinkError.Code.invalidAppAccountToken, .missingOriginalTransactionId]),
        CodeSet([AccountLinkConflict.Code.accountTokenMismatch]),
        CodeSet([PagingErrorCode.fetchFailed, .tokenRepeated, .tokenMissing]),
    ]

    /// Words of lower-case letters and digits joined by single underscores, starting with a letter:
    /// `malformed_json`, `wrong_app_apple_id`, `iso_4217`.
    static func isSnakeCase(_ text: String) -> Bool {
        let words = text.split(separator: "_", omittingEmptySubsequences: false)
        let startsWithALetter = text.first.map { ("a"..."z").contains($0) } ?? false
        return startsWithALetter
            && words.allSatisfy { word in
                !word.isEmpty && word.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
            }
    }

    @Test(arguments: all)
    func rawValuesAreSnakeCaseAndUnique(_ codes: CodeSet) {
        for rawValue in codes.rawValues {
            #expect(Self.isSnakeCase(rawValue), "\(codes.type) \(rawValue) is not snake_case")
        }
        #expect(Set(codes.rawValues).count == codes.rawValues.count, "\(codes.type) repeats a raw value")
        #expect(codes.descriptions == codes.rawValues)
    }

    /// The checker itself tells snake_case from the rest, so that the test above can fail.
    @Test(arguments: [
        ("malformed_json", true), ("overflow", true), ("wrong_app_apple_id", true), ("currencyMismatch", false),
        ("Currency_mismatch", false), ("double__underscore", false), ("_leading", false), ("trailing_", false),
        ("kebab-case", false), ("", false), ("iso_4217", true), ("4217_iso", false),
    ])
    func snakeCaseChecker(_ text: String, _ expected: Bool) {
        #expect(Self.isSnakeCase(text) == expected)
    }

    /// Every code declared in the sources is listed above, so that a new code cannot skip the snake_case check.
    @Test
    func everyCodeInTheSourcesIsListed() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/FamilyEntitlements")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var declared: Set<String> = []
        for case let url as URL in files where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            // A declaration may wrap after `Code(`, where the code also names its severity and rule.
            let joined = text.replacingOccurrences(of: #"\(\n\s*"#, with: "(", options: .regularExpression)
                .split(separator: "\n")
            for line in joined where line.contains("public static") {
                for marker in ["Code(rawValue: \"", "Self(rawValue: \""] {
                    guard let start = line.range(of: marker)?.upperBound,
                        let end = line[start...].firstIndex(of: "\"")
                    else { continue }
                    declared.insert(String(line[start..<end]))
                }
            }
        }
        #expect(declared.count > 50)
        #expect(declared == Set(Self.all.flatMap(\.rawValues)))
    }
}

extension CodeTests {
    /// Diagnostics sort by severity, code and message: a strict order, in which none precedes itself and of two
    /// different ones exactly one comes first, so that a report lists them the same way every time.
    @Test("diagnostics are ordered strictly by severity, code and message")
    func diagnosticsOrderStrictly() {
        let diagnostics = [
            Diagnostic(.foreignEnvironment, message: "b"), Diagnostic(.foreignEnvironment, message: "a"),
            Diagnostic(.conflictingSnapshots, message: "a"), Diagnostic(.impossibleValue, message: "a"),
        ]
        for diagnostic in diagnostics {
            #expect(!(diagnostic < diagnostic), "\(diagnostic) precedes itself")
        }
        for (left, right) in zip(diagnostics, diagnostics.dropFirst()) where left != right {
            #expect((left < right) != (right < left), "\(left) and \(right)")
        }
        #expect(
            diagnostics.sorted().map(\.description) == [
                "error foreign_environment: a", "error foreign_environment: b", "error impossible_value: a",
                "warning conflicting_snapshots: a",
            ])
    }

    /// A report stored by a later version may hold a code this one does not know: it keeps the severity written with
    /// it, not the error an unknown code defaults to, and a known code keeps its own.
    @Test("a stored diagnostic of an unknown code keeps the severity written with it")
    func unknownCodeKeepsItsStoredSeverity() throws {
        let decoder = JSONDecoder()
        let unknown = try decoder.decode(
            Diagnostic.self, from: Data(#"{"severity":"warning","code":"from_a_later_version","message":"m"}"#.utf8))
        #expect(unknown.severity == .warning)
        #expect(unknown.code.rawValue == "from_a_later_version")
        #expect(unknown.rule == .unknownValues)
        let known = try decoder.decode(
            Diagnostic.self, from: Data(#"{"severity":"error","code":"foreign_environment","message":"m"}"#.utf8))
        #expect(known.severity == .error)
        #expect(known.rule == Diagnostic.Code.foreignEnvironment.rule)
    }

    /// A diagnostic code compares by its raw value alone: one read back from JSON, or named with another severity or
    /// rule, is the code this version defines.
    @Test("diagnostic codes compare by raw value alone")
    func diagnosticCodesCompareByRawValue() {
        let known = Diagnostic.Code.impossibleValue
        #expect(Diagnostic.Code(rawValue: known.rawValue) == known)
        #expect(Diagnostic.Code(rawValue: known.rawValue, severity: .warning, rule: .unknownValues) == known)
        #expect(Diagnostic.Code(rawValue: "no_such_code") != known)
        let codes = Diagnostic.Code.known + [Diagnostic.Code(rawValue: known.rawValue)]
        #expect(Set(codes).count == Diagnostic.Code.known.count)
    }
}
