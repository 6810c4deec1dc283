{notes: .records, count: (.records | length), limit: ($query.limit // "default")}
