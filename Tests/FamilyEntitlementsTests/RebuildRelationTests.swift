import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// Relations between two rebuilds that hold whatever a rule decides: the same history reached by another path must be
/// decided alike. Each is checked over every decision-table row's history and mutations of it (snapshots signed again,
/// ties, left-out copies, REVOKEs, statuses), at the row's instant and at every date the history names, so that the
/// relation asks its questions of every rule at its edges.
@Suite("Rebuild relations over the decision table's histories")
struct RebuildRelationTests {
    /// The row's history, two mutations of it, and the instants to decide them at.
    static func cases(_ rowIndex: Int) -> [(history: History, instants: [Date])] {
        let row = DecisionRow.all[rowIndex]
        var histories = [row.history]
        for mutation in 0..<2 {
            histories.append(LedgerHistoryMutator.mutated(row.history, seed: UInt64(rowIndex * 10 + mutation + 3000)))
        }
        return histories.map { history in
            let edges = LedgerHistoryMutator.edges(of: history, from: .distantPast).filter { $0 < .distantFuture }
            // At most a dozen of them, spread over the history: each relation rebuilds twice per instant.
            let stride = max(1, edges.count / 12)
            return (history, [row.instant] + edges.enumerated().filter { $0.offset % stride == 0 }.map(\.element))
        }
    }

    /// Admission checks every transaction the same way, wherever it stands: a consumable of the same app and
    /// environment, bought long before, put first (once the path of a shortcut that checked the transactions after an
    /// app's first on its own) changes nothing. A consumable is never a product, so the report must not change at all.
    @Test(
        "a consumable of the same app put first changes no decision: admission checks every transaction alike",
        arguments: DecisionRow.all.indices)
    func shortcutDecidesAsTheFullChecks(rowIndex: Int) {
        let row = DecisionRow.all[rowIndex]
        for (history, instants) in Self.cases(rowIndex) {
            // Of the same app as the history: a purchase of another app is reported (mixed_bundles).
            var first = Given.oneTime("shortcut-1", Given.coins, type: .consumable, on: -3_000)
            first.environment = row.environment
            first.bundleId =
                row.catalog?.bundleId ?? Self.onlyBundleId(of: history, in: row.environment)
                ?? "org.familyentitlements.demo"
            var shortcut = history
            shortcut.transactions.insert(first, at: 0)
            for instant in instants {
                let plain = rebuildEntitlements(
                    history: history, asOf: instant, environment: row.environment, catalog: row.catalog)
                let through = rebuildEntitlements(
                    history: shortcut, asOf: instant, environment: row.environment, catalog: row.catalog)
                #expect(through == plain, "\(row.name), at \(instant)")
                if through != plain { return }
            }
        }
    }

    /// A notification of the transaction's own environment and app admits it exactly as it is admitted alone: a
    /// SUBSCRIBED notification ends nothing and states no billing issue, so only the evidence may differ (it names the
    /// notification).
    @Test(
        "a transaction inside a notification of its own environment and app decides as the transaction alone",
        arguments: DecisionRow.all.indices)
    func wrappedTransactionDecidesAlike(rowIndex: Int) {
        let row = DecisionRow.all[rowIndex]
        for (history, instants) in Self.cases(rowIndex) {
            var wrapped = history
            wrapped.transactions = []
            for (index, transaction) in history.transactions.enumerated() {
                // An undated transaction is placed in time by the notification that carries it (rule 1), so it is
                // not wrapped: the notification would say more than the transaction alone.
                guard let environment = transaction.environment, let bundleId = transaction.bundleId,
                    transaction.signedDate != nil
                else {
                    wrapped.transactions.append(transaction)
                    continue
                }
                wrapped.notifications.append(
                    NotificationPayload(
                        notificationType: .subscribed, notificationUUID: "wrapped-\(index)", version: "2.0",
                        signedDate: transaction.signedDate ?? transaction.purchaseDate,
                        data: NotificationData(
                            environment: environment, bundleId: bundleId, transactionInfo: transaction)))
            }
            for instant in instants {
                let alone = rebuildEntitlements(
                    history: history, asOf: instant, environment: row.environment, catalog: row.catalog)
                let carried = rebuildEntitlements(
                    history: wrapped, asOf: instant, environment: row.environment, catalog: row.catalog)
                #expect(DecisionSummary(carried) == DecisionSummary(alone), "\(row.name), at \(instant)")
                #expect(carried.validUntil == alone.validUntil, "\(row.name), at \(instant)")
                if DecisionSummary(carried) != DecisionSummary(alone) { return }
            }
        }
    }

    /// A purchase of another product in a chain of its own changes no other product's decision, evidence included:
    /// products are decided each from its own candidates.
    @Test("an unrelated purchase changes no other product's decision", arguments: DecisionRow.all.indices)
    func unrelatedPurchaseChangesNoOtherProduct(rowIndex: Int) {
        let row = DecisionRow.all[rowIndex]
        guard row.catalog == nil else { return }
        for (history, instants) in Self.cases(rowIndex) {
            // Of the same app as the history: a purchase of another app is reported (mixed_bundles), not unrelated.
            var unrelated = Given.oneTime(
                "unrelated-1", "org.familyentitlements.demo.unrelated", type: .nonConsumable, on: -5)
            unrelated.environment = row.environment
            unrelated.bundleId = Self.onlyBundleId(of: history, in: row.environment) ?? unrelated.bundleId
            var more = history
            more.transactions.append(unrelated)
            for instant in instants {
                let before = rebuildEntitlements(history: history, asOf: instant, environment: row.environment)
                let after = rebuildEntitlements(history: more, asOf: instant, environment: row.environment)
                let others = after.products.filter { $0.productId != ProductID(unrelated.productId ?? "") }
                #expect(others == before.products, "\(row.name), at \(instant)")
                #expect(Set(after.diagnostics) == Set(before.diagnostics), "\(row.name), at \(instant)")
                // An entry the rebuild could not read leaves nothing granting, the unrelated purchase included (rule 10).
                let unread = before.diagnostics.contains {
                    $0.code == .undecodedSignedString || $0.code == .undecodableSignedString
                }
                #expect(
                    after.customerStatus
                        == (instant >= Given.day(-5) && !unread ? .active : before.customerStatus),
                    "\(row.name), at \(instant)")
                if others != before.products { return }
            }
        }
    }

    /// The bundle id that every entry of `environment` in `history` names, where they name exactly one.
    static func onlyBundleId(of history: History, in environment: Environment) -> String? {
        var named: Set<String> = []
        for transaction in history.transactions where transaction.environment == environment {
            if let bundleId = transaction.bundleId { named.insert(bundleId) }
        }
        for notification in history.notifications where notification.data?.environment == environment {
            if let bundleId = notification.data?.bundleId { named.insert(bundleId) }
        }
        for snapshot in history.subscriptionStatuses where snapshot.environment == environment {
            if let bundleId = snapshot.bundleId { named.insert(bundleId) }
        }
        return named.count == 1 ? named.first : nil
    }
}
