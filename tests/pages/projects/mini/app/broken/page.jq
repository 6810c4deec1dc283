.records
