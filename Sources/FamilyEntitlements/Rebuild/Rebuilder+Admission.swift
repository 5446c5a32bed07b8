#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The entries that may take part in the decision.
///
/// `transactions` starts as the history's own array, which is not copied unless notifications add to it; the
/// positions of those left out are in `excluded`.
struct AdmittedEntries {
    var transactions: [TransactionPayload]
    /// The instant of evaluation: purchases after it are not noted as hidden.
    let instant: Date
    var excluded: Set<Int> = []
    var renewalInfos: [RenewalInfoPayload] = []
    /// The newest signedDate of the snapshots left out, by transaction id: they may carry a refund.
    var rejected: [String: Date] = [:]
    /// The newest signedDate of the renewal infos left out, by original transaction id: they may end billing retry.
    var rejectedRenewalInfos: [String: Date] = [:]
    /// The latest purchaseDate of the transactions left out, not trusted, or not read as auto-renewable, by original
    /// transaction id: a chain's renewal info may describe one of them rather than the newest transaction of the
    /// chain that takes part.
    var hiddenPurchases: [String: Date] = [:]
}

extension AdmittedEntries {
    /// The positions of the admitted transactions.
    var admittedIndices: [Int] {
        excluded.isEmpty ? Array(transactions.indices) : transactions.indices.filter { !excluded.contains($0) }
    }

    mutating func reject(_ transaction: TransactionPayload) {
        hide(transaction)
        guard let transactionId = transaction.transactionId else { return }
        let signed = transaction.signedDate ?? .distantPast
        rejected[transactionId] = max(rejected[transactionId] ?? signed, signed)
    }

    /// Notes the purchase of a transaction that takes no part, so that its chain's renewal info is not read as
    /// describing an older transaction.
    mutating func hide(_ transaction: borrowing TransactionPayload) {
        guard let originalId = transaction.originalTransactionId, let purchase = transaction.purchaseDate else {
            return
        }
        hide(originalId, purchasedAt: purchase)
    }

    mutating func hide(_ originalId: String, purchasedAt purchase: Date) {
        guard purchase <= instant else { return }
        hiddenPurchases[originalId] = max(hiddenPurchases[originalId] ?? purchase, purchase)
    }

    mutating func reject(_ renewalInfo: RenewalInfoPayload) {
        guard let originalId = renewalInfo.originalTransactionId else { return }
        let signed = renewalInfo.signedDate ?? .distantPast
        rejectedRenewalInfos[originalId] = max(rejectedRenewalInfos[originalId] ?? signed, signed)
    }
}

extension Rebuilder {
    /// Keeps the entries of the rebuild's environment that carry what the rebuild needs, and notes the rest.
    mutating func admit(_ history: History, into evidence: inout Evidence) -> AdmittedEntries {
        var admitted = AdmittedEntries(transactions: history.transactions, instant: instant)
        // Read in place: copying each payload out of the array would retain every one of its strings.
        history.transactions.withUnsafeBufferPointer { buffer in
            guard let transactions = buffer.baseAddress else { return }
            for index in buffer.indices
            where !isPlainlyAdmissible(transactions + index)
                && !isAdmissible(transactions[index], what: "transaction \(transactions[index].id)")
            {
                admitted.excluded.insert(index)
                admitted.reject(transactions[index])
            }
        }
        for renewalInfo in history.renewalInfos {
            admit(renewalInfo, what: "renewal info", into: &admitted)
        }
        for notification in history.notifications {
            admit(notification, into: &admitted, evidence: &evidence)
        }
        return admitted
    }

    /// Whether a transaction may take part and has nothing to report: the common case, checked without mutation, so
    /// that the payload is read field by field in place rather than copied whole.
    private func isPlainlyAdmissible(_ transaction: UnsafePointer<TransactionPayload>) -> Bool {
        guard transaction.pointee.environment == environment, transaction.pointee.inAppOwnershipType?.isKnown != false,
            let transactionId = transaction.pointee.transactionId, !transactionId.isEmpty,
            let originalId = transaction.pointee.originalTransactionId, !originalId.isEmpty,
            let productId = transaction.pointee.productId, !productId.isEmpty,
            let purchase = transaction.pointee.purchaseDate, purchase >= Self.appStoreOpening,
            transaction.pointee.expiresDate.map({ $0 >= purchase }) ?? true,
            transaction.pointee.revocationDate.map({ $0 >= purchase }) ?? true,
            transaction.pointee.signedDate.map({ $0 >= Self.appStoreOpening }) ?? true,
            transaction.pointee.quantity.map({ $0 >= 1 }) ?? true, transaction.pointee.price.map({ $0 >= 0 }) ?? true
        else { return false }
        if let catalog, let bundleId = catalog.bundleId, transaction.pointee.bundleId != bundleId { return false }
        if !catalogProducts.isEmpty, let catalogType = catalogProducts[productId]?.type,
            let type = transaction.pointee.type,
            type != catalogType
        {
            return false
        }
        return catalog?.bundleId != nil || transaction.pointee.bundleId == nil
            || transaction.pointee.bundleId == bundleSeen.first
    }

    /// Whether a transaction may take part: of the rebuild's environment and complete; reports it when not, and
    /// reports an ownership this library does not know.
    private mutating func isAdmissible(_ transaction: borrowing TransactionPayload, what: @autoclosure () -> String)
        -> Bool
    {
        guard admits(transaction.environment, what: what()), admits(bundleId: transaction.bundleId, what: what()),
            isComplete(transaction, what: what()), isPossible(transaction, what: what()),
            agreesWithCatalog(transaction, what: what())
        else {
            return false
        }
        if let ownership = transaction.inAppOwnershipType, !ownership.isKnown {
            report(
                .warning, .unknownOwnership,
                "\(what()) has inAppOwnershipType \"\(ownership.rawValue)\", which this library does not know; it "
                    + "counts where its fields allow, without the right to manage the subscription")
        }
        return true
    }

    private mutating func admit(
        _ renewalInfo: RenewalInfoPayload, what: @autoclosure () -> String, into admitted: inout AdmittedEntries
    ) {
        let original = renewalInfo.originalTransactionId
        guard admits(renewalInfo.environment, what: "\(what()) of original transaction \(original ?? "(none)")") else {
            admitted.reject(renewalInfo)
            return
        }
        guard let original else {
            report(.error, .incompleteTransaction, "\(what()) has no originalTransactionId; it is left out")
            return
        }
        let impossible = [
            original.isEmpty ? "an empty originalTransactionId" : nil,
            renewalInfo.signedDate.flatMap { $0 < Self.appStoreOpening ? "signedDate \($0.evidenceText)" : nil },
            renewalInfo.gracePeriodExpiresDate.flatMap {
                $0 < Self.appStoreOpening ? "gracePeriodExpiresDate \($0.evidenceText)" : nil
            },
        ].compactMap { $0 }
        guard impossible.isEmpty else {
            reportImpossible(impossible, what: "\(what()) of original transaction \(original)")
            admitted.reject(renewalInfo)
            return
        }
        admitted.renewalInfos.append(renewalInfo)
    }

    private mutating func admit(
        _ notification: NotificationPayload, into admitted: inout AdmittedEntries, evidence: inout Evidence
    ) {
        let type = notification.notificationType ?? NotificationType(rawValue: "")
        let mention = NotificationMention(
            type: type, subtype: notification.subtype, signedDate: notification.signedDate,
            notificationUUID: notification.notificationUUID)
        let name = "\(mention.label) notification \(notification.notificationUUID ?? "(no notificationUUID)")"
        if !type.isKnown {
            report(
                .warning, .unknownNotificationType,
                "\(name) has notificationType \"\(type.rawValue)\", which this library does not know; its "
                    + "transaction and renewal info were still evaluated")
        }
        if let subtype = notification.subtype, !subtype.isKnown {
            report(
                .warning, .unknownNotificationSubtype,
                "\(name) has subtype \"\(subtype.rawValue)\", which this library does not know; its transaction "
                    + "and renewal info were still evaluated")
        }
        guard let data = notification.data else { return }
        guard admits(data.environment, what: name), admits(bundleId: data.bundleId, what: name) else {
            if let transaction = data.transactionInfo { admitted.reject(transaction) }
            if let renewalInfo = data.renewalInfo { admitted.reject(renewalInfo) }
            return
        }
        if let transaction = data.transactionInfo {
            if isAdmissible(transaction, what: "transaction \(transaction.id) in \(name)") {
                admitted.transactions.append(transaction)
                if let transactionId = transaction.transactionId {
                    evidence.notifications[transactionId, default: []].insert(mention)
                }
            } else {
                admitted.reject(transaction)
            }
        }
        if let renewalInfo = data.renewalInfo {
            admit(renewalInfo, what: "renewal info in \(name)", into: &admitted)
        }
        recordEvent(of: notification, type: type, name: name, data: data, into: &evidence)
    }

    private mutating func recordEvent(
        of notification: NotificationPayload, type: NotificationType, name: String, data: NotificationData,
        into evidence: inout Evidence
    ) {
        let kind: ChainEvent.Kind
        switch type {
        case .revoke:
            guard let transaction = data.transactionInfo, transaction.revocationDate == nil else { return }
            if transaction.inAppOwnershipType == .familyShared {
                kind = .revoke(.familyRevocation)
            } else {
                report(
                    .warning, .unexpectedRevoke,
                    "\(name) revokes transaction \(transaction.id), which is not FAMILY_SHARED; it is revoked, "
                        + "cause unknown")
                kind = .revoke(.unknown)
            }
        case .expired: kind = .expired
        case .gracePeriodExpired: kind = .gracePeriodExpired
        default: return
        }
        guard
            let originalId = data.transactionInfo?.originalTransactionId ?? data.renewalInfo?.originalTransactionId,
            data.transactionInfo.map({ admits($0.environment) && isOfTheApp($0.bundleId) }) ?? true,
            data.renewalInfo.map({ admits($0.environment) }) ?? true
        else { return }
        guard let date = notification.signedDate else {
            report(
                .error, .incompleteNotification,
                "\(name) has no signedDate, so the rebuild cannot tell when it took effect; it is left out")
            return
        }
        evidence.events[originalId, default: []].append(ChainEvent(kind: kind, date: date, notification: name))
    }

    /// Whether an entry of this environment may take part; reports it when not.
    private mutating func admits(_ entryEnvironment: Environment?, what: @autoclosure () -> String) -> Bool {
        guard let entryEnvironment else {
            report(.error, .missingEnvironment, "\(what()) has no environment; it grants nothing")
            return false
        }
        guard entryEnvironment == environment else {
            let message =
                environment == .production && entryEnvironment == .sandbox
                ? "\(what()) is from Sandbox in a Production history: an attack or a bug, not a purchase; it grants "
                    + "nothing"
                : "\(what()) is from \(entryEnvironment.rawValue), not \(environment.rawValue); it grants nothing"
            report(.error, .foreignEnvironment, message)
            return false
        }
        return true
    }

    private func admits(_ entryEnvironment: Environment?) -> Bool {
        entryEnvironment == environment
    }

    /// 2008-07-10T00:00:00Z, the day the App Store opened: no purchase is older, so an earlier date can only be
    /// seconds mistaken for milliseconds. Xcode's year-1 originalPurchaseDate is never read by the rebuild.
    static let appStoreOpening = Date(timeIntervalSince1970: 1_215_648_000)

    /// Whether an entry's bundle id is the catalog's, where the catalog names one.
    private func isOfTheApp(_ bundleId: String?) -> Bool {
        guard let expected = catalog?.bundleId else { return true }
        return bundleId == expected
    }

    /// Whether an entry of this bundle id may take part; reports it when not. Without a catalog bundle id, notes the
    /// bundle ids seen, so that a history mixing apps is reported.
    private mutating func admits(bundleId: String?, what: @autoclosure () -> String) -> Bool {
        guard let expected = catalog?.bundleId else {
            if let bundleId {
                if bundleSeen.first == nil {
                    bundleSeen.first = bundleId
                } else if bundleSeen.first != bundleId {
                    bundleSeen.mixed = true
                }
            }
            return true
        }
        guard bundleId != expected else { return true }
        report(
            .error, .foreignBundle,
            "\(what()) is of bundle id \(bundleId.map { "\"\($0)\"" } ?? "(none)"), not the catalog's \"\(expected)\"; it "
                + "grants nothing")
        return false
    }

    /// Whether a transaction carries only values a real payload can; reports the impossible ones when not.
    private mutating func isPossible(_ transaction: borrowing TransactionPayload, what: @autoclosure () -> String)
        -> Bool
    {
        let purchase = transaction.purchaseDate ?? Self.appStoreOpening
        func early(_ name: String, _ date: Date?) -> String? {
            date.flatMap { $0 < Self.appStoreOpening ? "\(name) \($0.evidenceText), before the App Store opened" : nil }
        }
        let impossible = [
            transaction.transactionId == "" ? "an empty transactionId" : nil,
            transaction.originalTransactionId == "" ? "an empty originalTransactionId" : nil,
            transaction.productId == "" ? "an empty productId" : nil,
            early("purchaseDate", transaction.purchaseDate), early("signedDate", transaction.signedDate),
            early("expiresDate", transaction.expiresDate), early("revocationDate", transaction.revocationDate),
            transaction.expiresDate.flatMap { $0 < purchase ? "expiresDate before purchaseDate" : nil },
            transaction.revocationDate.flatMap { $0 < purchase ? "revocationDate before purchaseDate" : nil },
            transaction.quantity.flatMap { $0 < 1 ? "quantity \($0)" : nil },
            transaction.price.flatMap { $0 < 0 ? "a negative price (\($0) milliunits)" : nil },
        ].compactMap { $0 }
        guard impossible.isEmpty else {
            reportImpossible(impossible, what: what())
            hasUntrustedTransactions = true
            return false
        }
        return true
    }

    private mutating func reportImpossible(_ values: [String], what: String) {
        report(
            .error, .impossibleValue,
            "\(what) has \(values.joined(separator: ", ")), which no real payload carries; it grants nothing")
    }

    /// Whether a transaction's own type agrees with the catalog's type for its product; reports it when not.
    private mutating func agreesWithCatalog(
        _ transaction: borrowing TransactionPayload, what: @autoclosure () -> String
    ) -> Bool {
        guard let productId = transaction.productId, let catalogType = catalogProducts[productId]?.type,
            let type = transaction.type, type != catalogType
        else { return true }
        report(
            .error, .catalogTypeMismatch,
            "\(what()) is of type \(type.rawValue), but the catalog says \(productId) is \(catalogType.rawValue); "
                + "one of them is wrong, so it grants nothing")
        hasUntrustedTransactions = true
        return false
    }

    private mutating func isComplete(_ transaction: borrowing TransactionPayload, what: @autoclosure () -> String)
        -> Bool
    {
        if transaction.transactionId != nil, transaction.originalTransactionId != nil, transaction.productId != nil,
            transaction.purchaseDate != nil
        {
            return true
        }
        let missing = [
            transaction.transactionId == nil ? "transactionId" : nil,
            transaction.originalTransactionId == nil ? "originalTransactionId" : nil,
            transaction.productId == nil ? "productId" : nil,
            transaction.purchaseDate == nil ? "purchaseDate" : nil,
        ].compactMap { $0 }
        report(
            .error, .incompleteTransaction, "\(what()) has no \(missing.joined(separator: ", ")); it grants nothing")
        return false
    }
}
