//! Solana PubSub over WebSocket: the subscriptions clients and wallets confirm and watch with (signature,
//! account, program, logs, slot, root), in an agave node's notification shapes.
//!
//! Bounded: connections, subscriptions per connection and the size of a request are capped, and every
//! session reads the chain's events from a bounded queue. A session that falls behind the queue is
//! caught up from the transactions the chain keeps (nothing a client subscribed to is skipped) or, when
//! those no longer reach back far enough, closed with 1013 (try again later) so the client resubscribes;
//! one that does not take its messages within the send timeout is closed.
use std::{sync::Arc, time::Duration};

use axum::{
    extract::{
        ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade},
        State,
    },
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::any,
    Router,
};
use futures_util::{Sink, SinkExt, StreamExt};
use tokio::sync::{broadcast::error::RecvError, mpsc, watch, OwnedSemaphorePermit, Semaphore};

use crate::state::Validator;

mod session;

use session::Session;

/// Open PubSub connections at once; a further one is answered 503.
pub const MAX_CONNECTIONS: usize = 256;
/// Subscriptions (of any kind, so also addresses watched) one connection may hold.
pub const MAX_SUBSCRIPTIONS: usize = 1024;
/// A request is a method name and a few parameters.
const MAX_REQUEST_BYTES: usize = 64 * 1024;

#[derive(Clone)]
struct Server {
    validator: Arc<Validator>,
    stopping: watch::Receiver<bool>,
    /// Every session holds a clone; when all are dropped the sessions have said goodbye.
    live: mpsc::Sender<()>,
    send_timeout: Duration,
    connections: Arc<Semaphore>,
}

/// The PubSub server. When `stopping` turns true every session closes with a normal closure (1000), so
/// clients such as web3.js do not keep reconnecting to a chain that was stopped on purpose; `live`
/// closes once they all have.
pub fn router(
    validator: Arc<Validator>,
    stopping: watch::Receiver<bool>,
    live: mpsc::Sender<()>,
    send_timeout: Duration,
) -> Router {
    let connections = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    Router::new().route("/", any(upgrade)).with_state(Server { validator, stopping, live, send_timeout, connections })
}

async fn upgrade(ws: WebSocketUpgrade, State(server): State<Server>) -> Response {
    let Ok(permit) = server.connections.clone().try_acquire_owned() else {
        return (StatusCode::SERVICE_UNAVAILABLE, "too many PubSub connections").into_response();
    };
    ws.max_message_size(MAX_REQUEST_BYTES).on_upgrade(move |socket| session(socket, server, permit)).into_response()
}

/// Sends in order; false when the client is gone or does not take a message within `timeout`.
async fn send_all<S: Sink<Message> + Unpin>(sink: &mut S, messages: Vec<Message>, timeout: Duration) -> bool {
    for message in messages {
        match tokio::time::timeout(timeout, sink.send(message)).await {
            Ok(Ok(())) => {}
            Ok(Err(_)) => return false,
            Err(_) => {
                eprintln!("strm-local-chain: closing a PubSub connection that stopped taking its notifications");
                return false;
            }
        }
    }
    true
}

async fn session(socket: WebSocket, server: Server, _permit: OwnedSemaphorePermit) {
    let Server { validator, mut stopping, live: _live, send_timeout, .. } = server;
    let (mut tx, mut rx) = socket.split();
    let mut events = validator.events.subscribe();
    let mut session = Session::new(validator);

    loop {
        let out = tokio::select! {
            _ = async { stopping.wait_for(|stop| *stop).await.map(|_| ()) } => {
                let bye = CloseFrame { code: close_code::NORMAL, reason: "the local chain is stopping".into() };
                let _ = tokio::time::timeout(send_timeout, tx.send(Message::Close(Some(bye)))).await;
                return;
            }
            incoming = rx.next() => {
                let Some(Ok(message)) = incoming else { return };
                match message {
                    Message::Text(t) => session.request(t.as_str()).await,
                    Message::Ping(p) => vec![Message::Pong(p)],
                    Message::Close(_) => {
                        // The reply tungstenite queued, with the client's own code (RFC 6455 §5.5.1): a
                        // client that gets none (1006) takes it for a dropped connection, and web3.js
                        // then reconnects after each close of its idle socket.
                        let _ = tokio::time::timeout(send_timeout, tx.close()).await;
                        return;
                    }
                    _ => continue,
                }
            }
            event = events.recv() => match event {
                Ok(event) => session.event(event).await,
                Err(RecvError::Lagged(_)) => match session.catch_up().await {
                    Some(out) => out,
                    None => {
                        let bye = CloseFrame {
                            code: close_code::AGAIN,
                            reason: "notifications fell too far behind; resubscribe".into(),
                        };
                        let _ = tokio::time::timeout(send_timeout, tx.send(Message::Close(Some(bye)))).await;
                        return;
                    }
                },
                Err(RecvError::Closed) => return,
            },
        };
        if !send_all(&mut tx, out, send_timeout).await {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::{
        pin::Pin,
        task::{Context, Poll},
    };

    use super::*;

    /// A client that stopped reading: its socket never takes another message.
    struct Stuck;

    impl Sink<Message> for Stuck {
        type Error = std::convert::Infallible;
        fn poll_ready(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Pending
        }
        fn start_send(self: Pin<&mut Self>, _: Message) -> Result<(), Self::Error> {
            Ok(())
        }
        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Pending
        }
        fn poll_close(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }
    }

    #[tokio::test]
    async fn a_client_that_takes_no_message_within_the_timeout_is_given_up() {
        let started = std::time::Instant::now();
        let delivered = send_all(&mut Stuck, vec![Message::Text("{}".into())], Duration::from_millis(200)).await;
        assert!(!delivered);
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[tokio::test]
    async fn messages_go_out_in_order_to_a_client_that_reads() {
        let mut sink: Vec<Message> = Vec::new();
        let messages = vec![Message::Text("1".into()), Message::Text("2".into())];
        assert!(send_all(&mut sink, messages, Duration::from_secs(1)).await);
        assert_eq!(sink, vec![Message::Text("1".into()), Message::Text("2".into())]);
    }
}
