import FamilyEntitlements
import Foundation

/// What the service stores, read from `--stored FILE`: NDJSON `{"customer": "<id>", "entitlements": {"<id>": true}}`,
/// one customer per line. Only the entitlements set to true are kept, and with `--shard` only the shard's customers.
struct StoredEntitlements: Sendable {
    private var indices: [String: Int] = [:]
    private var customers: [String] = []
    private var granted: [[String]] = []

    var count: Int { customers.count }

    init(path: String, shard: Shard?, lineLimit: Int) throws {
        let descriptor = try Input.open(path, what: "--stored FILE")
        defer { if path != "-" { close(descriptor) } }
        let name = Input.displayName(path)
        var reader = LineReader(descriptor: descriptor, limit: lineLimit, name: name)
        while let line = try reader.next() {
            guard case .text(let bytes) = line else {
                throw InputError("\(name) line \(reader.lineNumber): longer than --max-line-bytes")
            }
            if bytes.allSatisfy(Input.isJSONWhitespace) { continue }
            do {
                let object = try TopLevelObject(bytes)
                let customer = try object.string("customer", in: bytes)
                if let shard, !shard.contains(customer) { continue }
                try object.refuseUnknown(known: ["customer", "entitlements"], of: "a --stored line")
                let entitlements = try Self.entitlements(object.value("entitlements", in: bytes))
                guard indices[customer] == nil else {
                    throw PayloadDecodingError(
                        code: .invalidValue, path: "customer", message: "customer \"\(customer)\" appears twice")
                }
                indices[customer] = customers.count
                customers.append(customer)
                granted.append(entitlements)
            } catch {
                throw InputError("\(name) line \(reader.lineNumber): \(error)")
            }
        }
    }

    /// The entitlements the service grants a customer, sorted; none for a customer it does not store.
    func entitlements(of customer: String) -> [String] {
        indices[customer].map { granted[$0] } ?? []
    }

    func index(of customer: String) -> Int? { indices[customer] }

    /// The stored customers with entitlements whose index `matched` does not mark: the input never named them.
    func unmatched(_ matched: [Bool]) -> [(String, [String])] {
        customers.indices.filter { !matched[$0] && !granted[$0].isEmpty }.map { (customers[$0], granted[$0]) }
    }

    /// The `entitlements` object's members set to true, sorted; an entitlement named twice is `duplicate_member`.
    private static func entitlements(_ bytes: ArraySlice<UInt8>) throws(PayloadDecodingError) -> [String] {
        let object: [String: Bool]
        do throws(PayloadDecodingError) {
            object = try PayloadJSON.decode([String: Bool].self, from: Data(bytes))
        } catch  where error.code == .duplicateMember {
            throw error.nested(under: "entitlements")
        } catch {
            throw PayloadDecodingError(
                code: .wrongType, path: "entitlements",
                message: "\"entitlements\" must be an object of true or false, {\"<id>\": true}")
        }
        return object.filter(\.value).map(\.key).sorted()
    }
}
