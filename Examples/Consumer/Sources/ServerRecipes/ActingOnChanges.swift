import FamilyEntitlements
import Foundation

extension AppStoreService {
    /// The actions a decision calls for, written with it in the outbox: a silent push to the customer's devices, so
    /// that a refund or a departure from the family takes access away now, not at the app's next launch.
    func actions(for changes: [EntitlementChange], of customer: String) -> [OutboxAction] {
        guard !changes.isEmpty else { return [] }  // Apple's retry, a renewal that only moves an expiry
        return [OutboxAction(customer: customer, codes: changes.map(\.code))]
    }

    /// Logs a written decision's changes; access taken away is worth a warning.
    func log(_ changes: [EntitlementChange], of customer: String) {
        for change in changes where change.takesAccessAway {
            logger.warning("customer \(customer): \(change)")  // access_lost names its cause
        }
        metrics.record("entitlement_changes", Double(changes.count))
    }

    /// The outbox worker: delivers every action written, then marks it delivered. A crash between the two delivers
    /// it again, so an action is delivered at least once: a push says "fetch your access again", harmless twice.
    func deliverOutbox() async throws {
        var pending = try await store.pendingActions(limit: 100)
        while !pending.isEmpty {
            for item in pending {
                await devices.silentPush(to: item.action.customer, item.action.codes)
                try await store.markDelivered(item.id)
            }
            pending = try await store.pendingActions(limit: 100)
        }
    }
}
