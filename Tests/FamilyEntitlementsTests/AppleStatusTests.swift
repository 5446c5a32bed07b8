import FamilyEntitlements
import Foundation
import Testing

@Suite("Apple's status cross-check")
struct AppleStatusTests {
    /// Two notifications signed in the same millisecond with the same status: the diagnostic names the same one
    /// whatever the order of the entries.
    @Test func tiesDoNotDependOnOrder() throws {
        let subscription = Given.subscription("2951", from: 0, to: 30)
        let renewal = Given.renewal("2951", signed: 40)
        var first = DecisionRow.statusNotification(
            .active, .didChangeRenewalStatus, .autoRenewEnabled, signed: 40, renewal: renewal)
        var second = first
        first.notificationUUID = "00000000-0000-4000-8000-000000000001"
        second.notificationUUID = "00000000-0000-4000-8000-000000000002"
        let reports = [[first, second], [second, first]].map {
            rebuildEntitlements(
                history: History(transactions: [subscription], notifications: $0), asOf: Given.day(45))
        }
        #expect(reports[0] == reports[1])
        let diagnostic = try #require(reports[0].diagnostics.first { $0.code == .appleStatusDisagrees })
        #expect(diagnostic.message.contains("00000000-0000-4000-8000-000000000002"))
        #expect(diagnostic.message.contains("expired"))
    }
}
