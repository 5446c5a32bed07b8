extension CustomerLedger: Codable {
    /// The version of the JSON form this release writes; it reads this one and every earlier one.
    public static let currentVersion = 1

    enum CodingKeys: String, CodingKey, CaseIterable {
        case version, transactions, renewalInfos, notifications
    }

    /// Reads the JSON form of `docs/ledger.md`.
    ///
    /// `version` is required: a version this release does not know, written by a later one, is a
    /// `PayloadDecodingError` with code `unsupported_version`, and an unknown key is one with code `unknown_key`, so
    /// that nothing stored is silently dropped. Entries are Apple's payloads as `AppStorePayload` decodes them:
    /// values Apple may extend keep their raw values.
    public init(from decoder: any Decoder) throws {
        try UnknownKeys.refuse(in: decoder, known: Set(CodingKeys.allCases.map(\.rawValue)), of: "a customer ledger")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .version)
        guard (1...Self.currentVersion).contains(version) else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container,
                debugDescription: "\(PayloadDecodingError.Code.unsupportedVersion): version \(version) was written by "
                    + "a later release; this one reads versions 1 to \(Self.currentVersion)")
        }
        self.init()
        let transactions = try container.decodeIfPresent([TransactionPayload].self, forKey: .transactions) ?? []
        let renewalInfos = try container.decodeIfPresent([RenewalInfoPayload].self, forKey: .renewalInfos) ?? []
        let notifications = try container.decodeIfPresent([NotificationPayload].self, forKey: .notifications) ?? []
        replace(
            transactions: Set(transactions), renewalInfos: Set(renewalInfos),
            notifications: Set(notifications.map(Self.stored)))
    }

    /// Writes the JSON form of `docs/ledger.md`, entries in the canonical order of `history`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let history = history
        try container.encode(Self.currentVersion, forKey: .version)
        try container.encode(history.transactions, forKey: .transactions)
        try container.encode(history.renewalInfos, forKey: .renewalInfos)
        try container.encode(history.notifications, forKey: .notifications)
    }
}

extension CustomerLedger: AppStorePayload {}
