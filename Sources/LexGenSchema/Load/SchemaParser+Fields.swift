/// Typed reads of a schema node's fields: a present field of the wrong JSON kind is an error.
extension SchemaParser {
    mutating func bool(_ json: JSONNode, _ key: String, _ path: String) -> Bool? {
        guard let node = json[key] else { return nil }
        guard case .bool(let value) = node.value else {
            error("\"\(key)\" must be a boolean, found \(node.kindName)", node, "\(path)/\(key)")
            return nil
        }
        return value
    }

    mutating func int(_ json: JSONNode, _ key: String, _ path: String) -> Int? {
        guard let node = json[key] else { return nil }
        guard case .number(_, let integer?) = node.value else {
            error("\"\(key)\" must be an integer, found \(node.kindName)", node, "\(path)/\(key)")
            return nil
        }
        return integer
    }

    mutating func string(_ json: JSONNode, _ key: String, _ path: String) -> String? {
        guard let node = json[key] else { return nil }
        guard let value = node.stringValue else {
            error("\"\(key)\" must be a string, found \(node.kindName)", node, "\(path)/\(key)")
            return nil
        }
        return value
    }

    mutating func stringArray(_ json: JSONNode, _ key: String, _ path: String) -> [String]? {
        guard let node = json[key] else { return nil }
        guard let items = node.arrayItems else {
            error("\"\(key)\" must be an array of strings, found \(node.kindName)", node, "\(path)/\(key)")
            return nil
        }
        var values: [String] = []
        for (index, item) in items.enumerated() {
            guard let value = item.stringValue else {
                error("\"\(key)\" must hold strings, found \(item.kindName)", item, "\(path)/\(key)/\(index)")
                continue
            }
            values.append(value)
        }
        return values
    }

    mutating func intArray(_ json: JSONNode, _ key: String, _ path: String) -> [Int]? {
        guard let node = json[key] else { return nil }
        guard let items = node.arrayItems else {
            error("\"\(key)\" must be an array of integers, found \(node.kindName)", node, "\(path)/\(key)")
            return nil
        }
        var values: [Int] = []
        for (index, item) in items.enumerated() {
            guard case .number(_, let value?) = item.value else {
                error("\"\(key)\" must hold integers, found \(item.kindName)", item, "\(path)/\(key)/\(index)")
                continue
            }
            values.append(value)
        }
        return values
    }
}
