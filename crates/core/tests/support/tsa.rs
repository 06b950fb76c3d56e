//! A local timestamp authority for a test: `openssl ts -reply` behind loopback HTTP
//! (`sightline_sandbox::tsa`), with its own test CA, in a folder of its own that lasts as long
//! as it does. No network.

use sightline_sandbox::tsa::{TestTsa, TsaOptions};

pub struct LocalTsa {
    pub tsa: TestTsa,
    /// Held so the authority's folder (its CA, key and serial) lasts as long as it does.
    pub dir: tempfile::TempDir,
    options: TsaOptions,
}

impl LocalTsa {
    /// An RSA authority on a free port.
    pub async fn start() -> LocalTsa {
        Self::with(|options| options).await
    }

    /// An authority with the options `change` sets (key kind, CA name, ESS v2, port).
    pub async fn with(change: impl FnOnce(TsaOptions) -> TsaOptions) -> LocalTsa {
        let dir = tempfile::tempdir().unwrap();
        let options = change(TsaOptions::new(dir.path()));
        let tsa = TestTsa::start(options.clone())
            .await
            .expect("the local timestamp authority starts (is openssl installed?)");
        LocalTsa { tsa, dir, options }
    }

    /// Stops it, then starts it again on the same port and folder: the same authority.
    pub async fn restart(mut self) -> LocalTsa {
        let options = TsaOptions {
            port: self.tsa.port(),
            ..self.options
        };
        self.tsa.stop().await;
        let tsa = TestTsa::start(options.clone()).await.unwrap();
        LocalTsa {
            tsa,
            dir: self.dir,
            options,
        }
    }
}
