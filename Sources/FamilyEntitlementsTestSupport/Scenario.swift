import FamilyEntitlements
import Foundation

/// A customer's history that ships in `Fixtures/Scenarios/`, with the decision the engine must reach.
///
/// Each scenario folder holds `history.json` (a file `entitlements rebuild` reads), `expected.json` (the decision in
/// the JSON contract of `entitlements rebuild --format json`, whose `asOf` and `environment` are the instant and
/// environment of evaluation) and, where products need one, `catalog.json`.
public enum Scenario: String, CaseIterable, Hashable, Sendable {
    /// A family member's history after the purchaser was refunded: the shared subscription is revoked, the member's
    /// own non-consumable still grants.
    case purchaserRefundedMember = "purchaser-refunded-member"

    /// What the scenario shows, in one sentence.
    public var summary: String {
        switch self {
        case .purchaserRefundedMember:
            "a family member after the purchaser was refunded: the shared subscription is revoked (cause inferred: "
                + "refund), the member's own purchase still grants"
        }
    }

    /// The folder of the scenario inside `Fixtures/`.
    public var folder: String { "Scenarios/\(rawValue)" }

    /// The bytes of `history.json`.
    public func historyData() throws(FixtureError) -> Data {
        try FixtureFiles.data("\(folder)/history.json")
    }

    /// The decoded history.
    public func history() throws(FixtureError) -> History {
        let data = try historyData()
        do {
            return try History.decodeUnverified(data).history
        } catch {
            throw FixtureError(path: "\(folder)/history.json", message: "\(error)")
        }
    }

    /// The catalog, where the scenario has one.
    public func catalog() throws(FixtureError) -> ProductCatalog? {
        let path = "\(folder)/catalog.json"
        guard (try? FixtureFiles.url(path)) != nil else { return nil }
        let data = try FixtureFiles.data(path)
        do {
            return try ProductCatalog(jsonData: data)
        } catch {
            throw FixtureError(path: path, message: "\(error)")
        }
    }

    /// The decision the engine must reach, from `expected.json`.
    public func expectedReport() throws(FixtureError) -> EntitlementReport {
        let path = "\(folder)/expected.json"
        let data = try FixtureFiles.data(path)
        do {
            return try JSONDecoder().decode(EntitlementReport.self, from: data)
        } catch {
            throw FixtureError(path: path, message: "\(error)")
        }
    }

    /// Runs `rebuildEntitlements(history:asOf:environment:catalog:)` at the scenario's instant and environment.
    public func rebuild() throws(FixtureError) -> EntitlementReport {
        let expected = try expectedReport()
        return rebuildEntitlements(
            history: try history(), asOf: expected.asOf, environment: expected.environment,
            catalog: try catalog() ?? ProductCatalog())
    }
}
