//! A server an audit reaches over the network: any rmcp handler served with
//! rmcp's Streamable HTTP server transport on a loopback port, by axum (as
//! rmcp's own examples serve it), behind a bearer token the server checks.

use std::sync::Arc;

use axum::extract::Request;
use axum::http::{header, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::ServerHandler;

/// The token every request must carry: `Authorization: Bearer TOKEN`.
pub const TOKEN: &str = "audit-token-7f3a";

/// A served handler: its URL, and the runtime that serves it (dropped, it stops).
pub struct Served {
    pub url: String,
    _runtime: tokio::runtime::Runtime,
}

/// Serves a fresh handler from `make` per session at `http://127.0.0.1:PORT/mcp`.
pub fn serve<S: ServerHandler + Send + 'static>(make: impl Fn() -> S + Send + Sync + 'static) -> Served {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("a loopback port");
    let url = format!("http://{}/mcp", listener.local_addr().expect("its address"));
    let service = StreamableHttpService::new(
        move || Ok(make()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let app = axum::Router::new()
        .nest_service("/mcp", service)
        .layer(middleware::from_fn(bearer));
    runtime.spawn(async move { axum::serve(listener, app).await });
    Served { url, _runtime: runtime }
}

/// 401 for a request without the token, as an HTTP server in front of MCP answers.
async fn bearer(request: Request, next: Next) -> Response {
    let expected = format!("Bearer {TOKEN}");
    let given = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok());
    if given == Some(expected.as_str()) {
        next.run(request).await
    } else {
        (StatusCode::UNAUTHORIZED, "a bearer token is required").into_response()
    }
}
