{records: .records}
