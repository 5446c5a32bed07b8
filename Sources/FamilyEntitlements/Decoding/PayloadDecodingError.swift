/// A payload that could not be decoded, with where and why.
///
/// `path` names the place in the document, in the form `data.signedTransactionInfo` or `transactions[3].price`; it is
/// empty when the whole document is at fault (for example, text that is not JSON).
public struct PayloadDecodingError: Error, LocatedProblem {
    /// What kind of problem the document has; an open set, so later versions may add codes.
    public struct Code: OpenCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The bytes are not JSON (RFC 8259).
        public static let malformedJSON = Code(rawValue: "malformed_json")
        /// A value has another JSON type than the field takes, such as a string where a number belongs.
        public static let wrongType = Code(rawValue: "wrong_type")
        /// A value that must be present is absent or null.
        public static let missingValue = Code(rawValue: "missing_value")
        /// A number is out of the field's range, such as a price beyond Int64.
        public static let numberOutOfRange = Code(rawValue: "number_out_of_range")
        /// A date is not a finite number of milliseconds between the years 1 and 9999.
        public static let invalidDate = Code(rawValue: "invalid_date")
        /// A value that must be a UUID, such as `appAccountToken`, is not one.
        public static let invalidUUID = Code(rawValue: "invalid_uuid")
        /// A value is of the right JSON type but not allowed, such as an ISO 8601 duration that does not parse.
        public static let invalidValue = Code(rawValue: "invalid_value")
        /// A JWS is not three base64url segments separated by dots.
        public static let malformedJWS = Code(rawValue: "malformed_jws")
        /// A JWS segment is not base64url.
        public static let invalidBase64 = Code(rawValue: "invalid_base64")
        /// The document is valid JSON but not a kind of payload this library reads.
        public static let unrecognisedDocument = Code(rawValue: "unrecognised_document")
        /// A document of the library's own (a catalog, a ledger) names a key it does not take, such as a misspelt
        /// `entitlemnts`, or is a document of another kind.
        public static let unknownKey = Code(rawValue: "unknown_key")
        /// A stored ledger was written by a later version of the library, in a form this version cannot read.
        public static let unsupportedVersion = Code(rawValue: "unsupported_version")
        /// An object names the same member twice (RFC 8259 section 4 leaves such a document's meaning to each reader:
        /// some keep the first, others the last). The path names the second occurrence, its last component the name.
        public static let duplicateMember = Code(rawValue: "duplicate_member")
    }

    /// What kind of problem the document has.
    public var code: Code
    /// Where the problem is: a dotted JSON path with `[index]` for arrays, or empty for the whole document.
    public var path: String
    /// What was wrong, in words.
    public var message: String

    public init(code: Code, path: String, message: String) {
        (self.code, self.path, self.message) = (code, path, message)
    }
}
