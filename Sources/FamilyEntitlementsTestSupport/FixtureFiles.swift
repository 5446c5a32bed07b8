import FamilyEntitlements
import Foundation

/// The files of the top-level `Fixtures/` folder, shipped as this module's resources.
///
/// SwiftPM (tools 6.0 and later) copies the folder into the module's resource bundle, so `Bundle.module` finds the
/// files from this package's tests, from a downstream package's tests, on Linux and on macOS.
public enum FixtureFiles {
    /// The URL of a file, given its path inside `Fixtures/`, such as `Scenarios/purchaser-refunded-member/history.json`.
    public static func url(_ relativePath: String) throws(FixtureError) -> URL {
        guard let root = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            throw FixtureError(path: relativePath, message: "the Fixtures folder is missing from the resource bundle")
        }
        let url = root.appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw FixtureError(path: relativePath, message: "no such fixture")
        }
        return url
    }

    /// The bytes of a file, given its path inside `Fixtures/`.
    public static func data(_ relativePath: String) throws(FixtureError) -> Data {
        let url = try url(relativePath)
        do {
            return try Data(contentsOf: url)
        } catch {
            throw FixtureError(path: relativePath, message: "cannot read: \(error)")
        }
    }

    /// The paths of every file inside `Fixtures/`, sorted.
    public static func allPaths() throws(FixtureError) -> [String] {
        guard let root = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            throw FixtureError(path: "", message: "the Fixtures folder is missing from the resource bundle")
        }
        let rootPath = root.standardizedFileURL.path
        guard let enumerator = FileManager.default.enumerator(atPath: rootPath) else {
            throw FixtureError(path: "", message: "cannot list the Fixtures folder")
        }
        var paths: [String] = []
        while let path = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: rootPath + "/" + path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                paths.append(path)
            }
        }
        return paths.sorted()
    }
}
