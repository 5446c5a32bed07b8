extension CustomerLedger: Codable {
    /// The latest version of the JSON form this release writes; it reads this one and every earlier one.
    ///
    /// Version 2 added `subscriptionStatuses`. A ledger is written as version 1 while it holds no status, so that a
    /// release that reads only version 1 still reads it, and as version 2 once it holds one, so that such a release
    /// refuses it as `unsupported_version` rather than misreading it.
    public static let currentVersion = 2

    /// The version a ledger's JSON form is written as: the earliest that holds everything in it.
    public var jsonVersion: Int { subscriptionStatuses.isEmpty ? 1 : 2 }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case version, transactions, renewalInfos, notifications, subscriptionStatuses
    }

    /// Reads the JSON form of `docs/ledger.md`.
    ///
    /// `version` is required: a version this release does not know, written by a later one, is a
    /// `PayloadDecodingError` with code `unsupported_version`, and an unknown key is one with code `unknown_key`, so
    /// that nothing stored is silently dropped. Entries are Apple's payloads as `AppStorePayload` decodes them:
    /// values Apple may extend keep their raw values. A notification is kept as written: one that holds a signed string
    /// beside decoded contents (the ledger never writes one) keeps both, and is read as a history file's is, so that
    /// the same notification decides the same in either document (`History.decodeUnverifiedLedger(_:)` lets the signed
    /// string decide, and reports the contents beside it as `unsigned_contents_ignored`).
    public init(from decoder: any Decoder) throws {
        // The version first: a later release's ledger is `unsupported_version` whatever keys it added.
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .version)
        guard (1...Self.currentVersion).contains(version) else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container,
                debugDescription: "\(PayloadDecodingError.Code.unsupportedVersion): version \(version) was written by "
                    + "a later release; this one reads versions 1 to \(Self.currentVersion)")
        }
        try UnknownKeys.refuse(in: decoder, known: Set(CodingKeys.allCases.map(\.rawValue)), of: "a customer ledger")
        if version < 2, container.contains(.subscriptionStatuses) {
            throw DecodingError.dataCorruptedError(
                forKey: .subscriptionStatuses, in: container,
                debugDescription:
                    "\(PayloadDecodingError.Code.unknownKey): a customer ledger of version \(version) has no "
                    + "key \"subscriptionStatuses\"; it came in version 2")
        }
        self.init()
        let transactions = try container.decodeIfPresent([TransactionPayload].self, forKey: .transactions) ?? []
        let renewalInfos = try container.decodeIfPresent([RenewalInfoPayload].self, forKey: .renewalInfos) ?? []
        let notifications = try container.decodeIfPresent([NotificationPayload].self, forKey: .notifications) ?? []
        let statuses =
            try container.decodeIfPresent([SubscriptionStatusSnapshot].self, forKey: .subscriptionStatuses) ?? []
        replace(
            transactions: Set(transactions), renewalInfos: Set(renewalInfos),
            notifications: Set(notifications), subscriptionStatuses: Set(statuses))
    }

    /// Writes the JSON form of `docs/ledger.md` as version `jsonVersion`, entries in the canonical order of
    /// `history`; `subscriptionStatuses` only where there is one.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let history = history
        try container.encode(jsonVersion, forKey: .version)
        try container.encode(history.transactions, forKey: .transactions)
        try container.encode(history.renewalInfos, forKey: .renewalInfos)
        try container.encode(history.notifications, forKey: .notifications)
        if !history.subscriptionStatuses.isEmpty {
            try container.encode(history.subscriptionStatuses, forKey: .subscriptionStatuses)
        }
    }
}

extension CustomerLedger: AppStorePayload {}
