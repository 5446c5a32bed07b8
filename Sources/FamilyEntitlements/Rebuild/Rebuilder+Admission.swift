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
    var excluded: Set<Int> = []
    var renewalInfos: [RenewalInfoPayload] = []
    /// The newest signedDate of the snapshots left out, by transaction id: they may carry a refund.
    var rejected: [String: Date] = [:]
}

extension AdmittedEntries {
    /// The positions of the admitted transactions.
    var admittedIndices: [Int] {
        excluded.isEmpty ? Array(transactions.indices) : transactions.indices.filter { !excluded.contains($0) }
    }

    mutating func reject(_ transaction: TransactionPayload) {
        guard let transactionId = transaction.transactionId else { return }
        let signed = transaction.signedDate ?? .distantPast
        rejected[transactionId] = max(rejected[transactionId] ?? signed, signed)
    }
}

extension Rebuilder {
    /// Keeps the entries of the rebuild's environment that carry what the rebuild needs, and notes the rest.
    mutating func admit(_ history: History, into evidence: inout Evidence) -> AdmittedEntries {
        var admitted = AdmittedEntries(transactions: history.transactions)
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
        transaction.pointee.environment == environment && transaction.pointee.transactionId != nil
            && transaction.pointee.originalTransactionId != nil && transaction.pointee.productId != nil
            && transaction.pointee.purchaseDate != nil && transaction.pointee.inAppOwnershipType?.isKnown != false
    }

    /// Whether a transaction may take part: of the rebuild's environment and complete; reports it when not, and
    /// reports an ownership this library does not know.
    private mutating func isAdmissible(_ transaction: borrowing TransactionPayload, what: @autoclosure () -> String)
        -> Bool
    {
        guard admits(transaction.environment, what: what()), isComplete(transaction, what: what()) else {
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
            return
        }
        guard original != nil else {
            report(.error, .incompleteTransaction, "\(what()) has no originalTransactionId; it is left out")
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
        guard admits(data.environment, what: name) else {
            if let transaction = data.transactionInfo { admitted.reject(transaction) }
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
            data.transactionInfo.map({ admits($0.environment) }) ?? true,
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
