//! The store's error type. Messages never contain an API key: the store never receives one.

/// Everything that can go wrong in the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A money value the ledger cannot hold exactly (more than 9 decimals, or out of range).
    #[error("amount {0} cannot be stored exactly (at most 9 decimals, at most ~9.2 billion)")]
    InexactMoney(String),
    /// A caller-supplied value the store refuses (the message says which and why).
    #[error("invalid input: {0}")]
    InvalidInput(String),
    #[error("JSON error: {0}")]
    Json(#[from] serde_json::Error),
    #[error("CSV error: {0}")]
    Csv(#[from] csv::Error),
    #[error("write error: {0}")]
    Io(#[from] std::io::Error),
}

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
}
