import TallyQuery

extension MaterialState {
    /// A `material_state` row as `learning_materials.sql` selects it.
    init(row: Statement) {
        var title: (order: Newest, value: String)?
        var position: (order: Newest, value: MaterialPosition)?
        if let value = row.text(9) {
            title = (Newest(ts: row.int64(10), seq: row.int64(11), key: row.text(12) ?? ""), value)
        }
        if let json = row.text(13) {
            let progress = row.isNull(14) ? nil : row.double(14)
            position = (Newest(ts: row.int64(15), seq: row.int64(16), key: row.text(17) ?? ""),
                        MaterialPosition(json: json, progress: progress))
        }
        self.init(materialId: row.text(1) ?? "", activeSeconds: row.int(3), completions: row.int(4),
                  last: Newest(ts: row.int64(5), seq: row.int64(6), key: row.text(7) ?? ""),
                  targetType: row.text(8) ?? "knowledge_source", title: title, position: position)
    }
}
