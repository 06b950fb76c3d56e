//! A media host on loopback for the media fetcher's tests: plain HTTP/1.1 over a TCP listener,
//! each path answered as the test set it (bytes, a status, a body with no length, a redirect),
//! every request counted by path, so a test can say exactly what was fetched and how often.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// How the host answers one path.
#[derive(Clone)]
pub enum Answer {
    /// 200 with these bytes, this type, and their Content-Length.
    Bytes(&'static str, Vec<u8>),
    /// 200 with these bytes and no Content-Length (the body ends when the connection closes),
    /// so only counting while reading finds its size.
    Unsized(&'static str, Vec<u8>),
    /// 200 with these bytes' Content-Length, but only their first half, then silence: a
    /// fetch cut half-way.
    Stalled(&'static str, Vec<u8>),
    /// This status line, with an empty body.
    Status(&'static str),
    /// 302 to this address.
    Redirect(String),
}

#[derive(Default)]
struct Routes {
    answers: HashMap<String, Answer>,
    asked: HashMap<String, usize>,
}

/// The host: its address, its answers and its counts.
#[derive(Clone)]
pub struct MediaHost {
    pub base: String,
    routes: Arc<Mutex<Routes>>,
}

impl MediaHost {
    pub async fn start() -> MediaHost {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let routes = Arc::new(Mutex::new(Routes::default()));
        let served = routes.clone();
        tokio::spawn(async move {
            loop {
                let Ok((mut socket, _)) = listener.accept().await else {
                    return;
                };
                let routes = served.clone();
                tokio::spawn(async move {
                    let mut request = Vec::new();
                    let mut buffer = [0u8; 4096];
                    while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                        match socket.read(&mut buffer).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => request.extend_from_slice(&buffer[..n]),
                        }
                    }
                    let head = String::from_utf8_lossy(&request).into_owned();
                    let path = head.split_whitespace().nth(1).unwrap_or("/").to_owned();
                    let answer = {
                        let mut routes = routes.lock().unwrap();
                        *routes.asked.entry(path.clone()).or_default() += 1;
                        routes.answers.get(&path).cloned()
                    };
                    let bytes = match answer {
                        Some(Answer::Bytes(kind, body)) => [
                            format!(
                                "HTTP/1.1 200 OK\r\ncontent-type: {kind}\r\ncontent-length: {}\r\n\
                                 x-served-by: media-host\r\nconnection: close\r\n\r\n",
                                body.len()
                            )
                            .into_bytes(),
                            body,
                        ]
                        .concat(),
                        Some(Answer::Unsized(kind, body)) => [
                            format!(
                                "HTTP/1.1 200 OK\r\ncontent-type: {kind}\r\nconnection: close\r\n\r\n"
                            )
                            .into_bytes(),
                            body,
                        ]
                        .concat(),
                        Some(Answer::Stalled(kind, body)) => {
                            let head = format!(
                                "HTTP/1.1 200 OK\r\ncontent-type: {kind}\r\ncontent-length: {}\r\n\r\n",
                                body.len()
                            );
                            let _ = socket.write_all(head.as_bytes()).await;
                            let _ = socket.write_all(&body[..body.len() / 2]).await;
                            // Held open until the test's runtime ends.
                            std::future::pending::<()>().await;
                            return;
                        }
                        Some(Answer::Status(line)) => format!(
                            "HTTP/1.1 {line}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                        )
                        .into_bytes(),
                        Some(Answer::Redirect(to)) => format!(
                            "HTTP/1.1 302 Found\r\nlocation: {to}\r\ncontent-length: 0\r\n\
                             connection: close\r\n\r\n"
                        )
                        .into_bytes(),
                        None => b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                            .to_vec(),
                    };
                    let _ = socket.write_all(&bytes).await;
                    let _ = socket.shutdown().await;
                });
            }
        });
        MediaHost { base, routes }
    }

    /// Answers `path` with `answer` from now on; its address.
    pub fn serve(&self, path: &str, answer: Answer) -> String {
        self.routes
            .lock()
            .unwrap()
            .answers
            .insert(path.to_owned(), answer);
        self.url(path)
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Requests for `path` so far.
    pub fn asked(&self, path: &str) -> usize {
        self.routes
            .lock()
            .unwrap()
            .asked
            .get(path)
            .copied()
            .unwrap_or(0)
    }

    /// Requests for every path so far.
    pub fn asked_in_all(&self) -> usize {
        self.routes.lock().unwrap().asked.values().sum()
    }
}
