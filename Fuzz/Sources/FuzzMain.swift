#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The target this executable runs: named by `FUZZ_TARGET`, else by the executable's own file name.
let selectedTarget: @Sendable (Data) -> Void = {
    let executable = CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? "") } ?? ""
    let name = getenv("FUZZ_TARGET").map { String(cString: $0) } ?? executable
    if name == "list" {
        print(fuzzTargets.map(\.name).joined(separator: "\n"))
        exit(0)
    }
    guard let target = fuzzTargets.first(where: { $0.name == name }) else {
        let names = fuzzTargets.map(\.name).joined(separator: ", ")
        print("unknown fuzz target \"\(name)\"; set FUZZ_TARGET to one of: \(names), or list")
        exit(2)
    }
    return target.run
}()

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    _ = selectedTarget
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    selectedTarget(data)
    return 0
}
