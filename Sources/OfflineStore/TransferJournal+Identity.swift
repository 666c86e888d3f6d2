extension TransferJournal {
  /// The migrations that record the content coding of a part and the identity of a complete
  /// file, applied after ``rangeMigrations``.
  static let identityMigrations: [Migration] = [
    Migration("transfers.v3.identity") { connection throws(StoreError) in
      try connection.execute(
        """
        ALTER TABLE transfers ADD COLUMN content_encoding TEXT;
        ALTER TABLE transfers ADD COLUMN file_size INTEGER;
        ALTER TABLE transfers ADD COLUMN file_mtime_ns INTEGER;
        ALTER TABLE transfers ADD COLUMN file_inode INTEGER;
        ALTER TABLE transfers ADD COLUMN file_device INTEGER;
        """)
    }
  ]
}
