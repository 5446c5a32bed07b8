/// A value kept on the heap, for a payload field that is large and rarely present: the payload holds a pointer, nil
/// where the field is absent.
///
/// Advanced Commerce information is about 170 bytes of optionals, present only for apps that sell through that API;
/// stored inline it would make every `TransactionPayload` a third larger, which the rebuild, which copies and scans
/// payloads but never reads Advanced Commerce, pays in copies and cache misses at every history length.
enum OutOfLine<Value: Hashable & Sendable>: Hashable, Sendable {
    indirect case value(Value)

    init(_ value: Value) { self = .value(value) }

    var value: Value {
        switch self {
        case .value(let value): value
        }
    }
}
