//! The store's error type. Messages never contain an API key: the store never receives one.

/// Everything that can go wrong in the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite failed or refused (a full disk, a read-only file, a constraint).
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// A migration could not be applied.
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A money value the ledger cannot hold exactly (more than 9 decimals, or out of range).
    #[error("amount {0} cannot be stored exactly (at most 9 decimals, at most ~9.2 billion)")]
    InexactMoney(String),
    /// A caller-supplied value the store refuses (the message says which and why).
    #[error("invalid input: {0}")]
    InvalidInput(String),
    /// JSON that could not be read or written.
    #[error("JSON error: {0}")]
    Json(#[from] serde_json::Error),
    /// A CSV file that could not be written.
    #[error("CSV error: {0}")]
    Csv(#[from] csv::Error),
    /// A file that could not be written or read.
    #[error("write error: {0}")]
    Io(#[from] std::io::Error),
    /// The database was written by a Sightline that knows migrations this one does not: it is
    /// never migrated or written by this one (see `crate::upgrade`).
    #[error(
        "the database was written by a newer Sightline (schema versions {unknown:?}; this one knows up to {latest_known})"
    )]
    NewerSchema {
        /// The migrations the file records that this build does not know.
        unknown: Vec<i64>,
        /// The newest migration this build knows.
        latest_known: i64,
    },
    /// SQLite's check of the file failed, or SQLite found it malformed: its report, first lines.
    #[error("the database file is damaged: {}", report.join("; "))]
    Damaged {
        /// SQLite's report, first lines.
        report: Vec<String>,
    },
}

/// The store's result: [`StoreError`] unless said otherwise.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;

impl StoreError {
    /// The disk (or the database's size limit) is full: SQLite's SQLITE_FULL, or an OS write
    /// that found no space. Worth telling apart: the user can fix it by freeing space.
    pub fn is_disk_full(&self) -> bool {
        const SQLITE_FULL: i32 = 13;
        match self {
            Self::Database(sqlx::Error::Database(error)) => error
                .code()
                .and_then(|code| code.parse::<i32>().ok())
                .is_some_and(|code| code & 0xff == SQLITE_FULL),
            Self::Database(sqlx::Error::Io(error)) | Self::Io(error) => {
                error.kind() == std::io::ErrorKind::StorageFull
            }
            _ => false,
        }
    }

    /// SQLite found the file malformed (SQLITE_CORRUPT) or not a database at all
    /// (SQLITE_NOTADB), or its check failed.
    pub fn is_damage(&self) -> bool {
        const SQLITE_CORRUPT: i32 = 11;
        const SQLITE_NOTADB: i32 = 26;
        match self {
            Self::Damaged { .. } => true,
            Self::Database(sqlx::Error::Database(error)) => error
                .code()
                .and_then(|code| code.parse::<i32>().ok())
                .is_some_and(|code| matches!(code & 0xff, SQLITE_CORRUPT | SQLITE_NOTADB)),
            _ => false,
        }
    }

    /// A write refused because the database was opened read-only (SQLITE_READONLY).
    pub fn is_read_only(&self) -> bool {
        const SQLITE_READONLY: i32 = 8;
        match self {
            Self::Database(sqlx::Error::Database(error)) => error
                .code()
                .and_then(|code| code.parse::<i32>().ok())
                .is_some_and(|code| code & 0xff == SQLITE_READONLY),
            _ => false,
        }
    }
}
