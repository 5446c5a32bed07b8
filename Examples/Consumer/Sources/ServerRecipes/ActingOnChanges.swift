import FamilyEntitlements
import Foundation

extension AppStoreService {
    /// Acts on what changed: a new ETag for the customer's cached answers, and a silent push to their devices, so
    /// that a refund or a departure from the family takes access away now, not at the app's next launch.
    func act(on changes: [EntitlementChange], of customer: String) async {
        guard !changes.isEmpty else { return }  // Apple's retry, a renewal that only moves an expiry
        for change in changes where change.takesAccessAway {
            logger.warning("customer \(customer): \(change)")  // access_lost names its cause
        }
        metrics.record("entitlement_changes", Double(changes.count))
        await devices.silentPush(to: customer, changes.map(\.code))
    }
}
