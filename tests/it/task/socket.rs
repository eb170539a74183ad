//! A WebSocket server outside the task, beside the attacker's: what a
//! page's script sends over a socket it keeps open.

/// A WebSocket server that records each text message it hears.
pub(super) struct Socket {
    pub(super) port: u16,
    heard: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl Socket {
    pub(super) async fn start() -> Self {
        use futures::StreamExt;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        let port = listener.local_addr().expect("its address").port();
        let heard: std::sync::Arc<std::sync::Mutex<Vec<String>>> = std::sync::Arc::default();
        let kept = std::sync::Arc::clone(&heard);
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let kept = std::sync::Arc::clone(&kept);
                tokio::spawn(async move {
                    let Ok(mut socket) = async_tungstenite::tokio::accept_async(stream).await
                    else {
                        return;
                    };
                    while let Some(Ok(message)) = socket.next().await {
                        if let Ok(text) = message.to_text() {
                            kept.lock().expect("the record").push(text.to_owned());
                        }
                    }
                });
            }
        });
        Self { port, heard }
    }

    pub(super) fn origin(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub(super) fn heard(&self) -> Vec<String> {
        self.heard.lock().expect("the record").clone()
    }
}
