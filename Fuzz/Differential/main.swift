// A libFuzzer target that holds the fast decoding path to the reference path (Foundation's JSONDecoder).
//
// Build and run (Linux toolchain with libFuzzer), from the package root:
//
//   mkdir -p .build/fuzz-differential
//   swiftc -sanitize=fuzzer -parse-as-library -O -swift-version 6 -package-name familyentitlements \
//       -module-name FamilyEntitlements -emit-library -static -o .build/fuzz-differential/libFamilyEntitlements.a \
//       -emit-module -emit-module-path .build/fuzz-differential/FamilyEntitlements.swiftmodule \
//       $(find Sources/FamilyEntitlements -name '*.swift' | sort)
//   swiftc -sanitize=fuzzer -parse-as-library -O -swift-version 6 -package-name familyentitlements \
//       -I .build/fuzz-differential -L .build/fuzz-differential -lFamilyEntitlements \
//       Fuzz/Differential/main.swift Tests/FamilyEntitlementsTests/RFC8259.swift \
//       Tests/FamilyEntitlementsTests/ReferenceJWS.swift -o .build/fuzz-differential/fuzz-differential
//
// (Fuzz/run.sh does this; RFC8259.swift and ReferenceJWS.swift are the checker and the former JWS reading the
// differential tests use too.)
//   SWIFT_BACKTRACE=enable=no .build/fuzz-differential/fuzz-differential -max_total_time=60 -max_len=4096 \
//       .build/fuzz-differential/corpus Fixtures
//
// Every input is decoded as each payload type by both paths, and the run stops (a crash libFuzzer keeps) when a rule
// breaks: where both accept, the values differ; the fast path accepts what the reference rejects; only the reference
// accepts an input that is RFC 8259 JSON; or the fast path accepts an input that is not. An input of ASCII text is
// also read as a compact JWS and as base64url by the fast and the former readings, which must agree.

import FamilyEntitlements
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDifferential(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let data = Data(bytes)
    let isJSON = RFC8259.isJSONText(bytes)
    check(TransactionPayload.self, data, isJSON: isJSON)
    check(RenewalInfoPayload.self, data, isJSON: isJSON)
    check(NotificationPayload.self, data, isJSON: isJSON)
    check(AppTransactionPayload.self, data, isJSON: isJSON)
    check(TransactionHistoryResponse.self, data, isJSON: isJSON)
    check(SubscriptionStatusesResponse.self, data, isJSON: isJSON)
    check(NotificationRequestBody.self, data, isJSON: isJSON)
    check(TransactionInfoResponse.self, data, isJSON: isJSON)
    check(NotificationHistoryResponse.self, data, isJSON: isJSON)
    check(ExtendRenewalDateResponse.self, data, isJSON: isJSON)
    check(SubscriptionStatusSnapshot.self, data, isJSON: isJSON)
    if bytes.allSatisfy({ $0 < 0x80 }) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard Base64URL.decode(text) == Base64URL.referenceDecode(text) else {
            fatalError("base64url: the fast reading differs from Foundation's for \(text.debugDescription)")
        }
        let fast = Result { () throws(PayloadDecodingError) in try UnverifiedJWS(compact: text) }
        let reference = Result { () throws(PayloadDecodingError) in try ReferenceJWS.read(text) }
        guard fast == reference else {
            fatalError("compact JWS: the fast reading differs from the former one for \(text.debugDescription)")
        }
    }
    return 0
}

/// Stops the run when the two paths break a rule for `type`.
func check<T: AppStorePayload>(_ type: T.Type, _ data: Data, isJSON: Bool) {
    let reference = Result { () throws(PayloadDecodingError) in try T(referenceJSONData: data) }
    let fast = Result { () throws(PayloadDecodingError) in try T(jsonData: data) }
    let fastAlone = T.decodeWithFastPathOnly(data)
    let input = String(decoding: data.prefix(300), as: UTF8.self).debugDescription
    switch (reference, fast) {
    case (.success(let expected), .success(let actual)):
        guard same(expected, actual) else { fatalError("\(T.self): the paths decode different values for \(input)") }
    case (.failure(let error), .success):
        fatalError("\(T.self): the fast path accepts what the reference rejects (\(error)): \(input)")
    case (.success, .failure(let error)):
        guard !isJSON else {
            fatalError("\(T.self): only the reference accepts RFC 8259 JSON (fast path: \(error)): \(input)")
        }
    case (.failure, .failure):
        break
    }
    if case .success(let alone) = fastAlone {
        guard case .success(let expected) = reference, same(alone, expected) else {
            fatalError("\(T.self): the fast path alone disagrees with the reference: \(input)")
        }
    }
    if !isJSON, case .success = fast {
        fatalError("\(T.self): the fast path accepts what breaks RFC 8259: \(input)")
    }
}

/// Equal as values and encoded to the same bytes (`String` equality is canonical equivalence; bytes are not).
func same<T: AppStorePayload>(_ first: T, _ second: T) -> Bool {
    guard first == second else { return false }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return (try? encoder.encode(first)) == (try? encoder.encode(second))
}
