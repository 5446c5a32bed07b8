/// Renders coding paths as the dotted JSON paths used in error values.
enum JSONPath {
    static func render(_ codingPath: [any CodingKey]) -> String {
        var path = ""
        for key in codingPath {
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path = join(path, key.stringValue)
            }
        }
        return path
    }

    static func join(_ prefix: String, _ suffix: String) -> String {
        if prefix.isEmpty { return suffix }
        if suffix.isEmpty { return prefix }
        return suffix.hasPrefix("[") ? prefix + suffix : prefix + "." + suffix
    }
}
