import Foundation

/// How a comparison is printed: one figure per side (median per operation, and a throughput when
/// each operation has a size), their spread, and the ratio, on fixed-width lines.
package struct Report {
    /// What one operation is called in rates ("verifications", "commits").
    package var unit: String
    /// Bytes per operation, for MB/s; nil prints operations per second.
    package var bytesPerOperation: Int?

    package init(unit: String, bytesPerOperation: Int? = nil) {
        self.unit = unit
        self.bytesPerOperation = bytesPerOperation
    }

    /// One side's line: median time per operation, its rate, and the spread.
    package func line(_ label: String, _ figures: Figures) -> String {
        let name = label.padding(toLength: 44, withPad: " ", startingAt: 0)
        let median = figures.median
        let rate: String
        if let bytes = bytesPerOperation {
            rate = String(format: "%9.1f MB/s", Double(bytes) / median / 1e6)
        } else {
            rate = String(format: "%9.0f %@/s", 1 / median, unit)
        }
        return "\(name) \(rate)  \(duration(median)) each  (IQR ±\(String(format: "%.1f", figures.spread * 50)) %)"
    }

    /// The lines of a comparison: ours, the reference (or why not), and the ratio.
    package func lines(_ comparison: Comparison, ours: String, reference: String, note: String? = nil) -> [String] {
        var lines = [line(ours, comparison.ours)]
        if let theirs = comparison.reference, let ratio = comparison.ratio {
            lines.append(line(reference, theirs))
            lines.append(
                "  ratio (reference time / ours, median of rounds): "
                    + String(format: "%.2fx, IQR %.2f-%.2f", ratio.median, ratio.quantile(0.25), ratio.quantile(0.75)))
        } else {
            lines.append("  \(reference): not measured")
        }
        if let note { lines.append("  reference leaves out: \(note)") }
        return lines
    }

    private func duration(_ seconds: Double) -> String {
        seconds >= 1e-3 ? String(format: "%8.2f ms", seconds * 1e3) : String(format: "%8.2f µs", seconds * 1e6)
    }
}
