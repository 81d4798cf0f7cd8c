//! Failures raised by real libraries inside `#[tool]` handlers (std's io,
//! reqwest against loopback servers, serde_json, a panic), returned with `?`
//! as a `ToolCallError` and answered by a real `EnvelopeServer` to rmcp's
//! own client over an in-memory pipe: each reaches the model as the most
//! specific code its structure tells, naming the argument it concerns, and
//! no secret it carried reaches the model (docs/thrown-errors.md).

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_envelope::rmcp::{EnvelopeServer, ToolCallError};
use mcp_envelope::Format;
use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::{tool, tool_handler, tool_router, RoleClient, ServerHandler, ServiceExt};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

#[derive(Deserialize, JsonSchema)]
struct PathArgument {
    /// A path under the server's folder.
    path: String,
}

#[derive(Deserialize, JsonSchema)]
struct UrlArgument {
    url: String,
}

#[derive(Deserialize, JsonSchema)]
struct TextArgument {
    text: String,
}

#[derive(Deserialize, JsonSchema)]
struct Empty {}

/// What `parse_settings` reads.
#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Settings {
    port: u16,
}

/// A server as an rmcp author writes one: files under its root, an upstream
/// it calls, settings it parses; every failure is a library's own.
#[derive(Clone)]
struct Workspace {
    root: PathBuf,
    /// A file outside the arguments, whose path holds a secret.
    config: PathBuf,
    /// The upstream `sync` calls, its token in the query.
    upstream: String,
    tool_router: ToolRouter<Self>,
}

/// A client to loopback servers, with no proxy.
fn http() -> reqwest::Client {
    client(reqwest::Client::builder())
}

/// `builder`'s client, with no proxy. In the workspace's build reqwest has
/// rustls with no crypto provider of its own (the command's features), and
/// refuses to build a client until one is installed.
fn client(builder: reqwest::ClientBuilder) -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    builder.no_proxy().build().expect("a client")
}

#[tool_router]
impl Workspace {
    fn new(root: PathBuf, config: PathBuf, upstream: String) -> Self {
        Workspace {
            root,
            config,
            upstream,
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "A text file's content.")]
    async fn read_file(
        &self,
        Parameters(PathArgument { path }): Parameters<PathArgument>,
    ) -> Result<String, ToolCallError> {
        let full = self.root.join(&path);
        let text = std::fs::read_to_string(&full).map_err(|e| ToolCallError::io(e, &full))?;
        Ok(text)
    }

    #[tool(description = "Creates a folder.")]
    async fn create_folder(
        &self,
        Parameters(PathArgument { path }): Parameters<PathArgument>,
    ) -> Result<String, ToolCallError> {
        let full = self.root.join(&path);
        std::fs::create_dir(&full).map_err(|e| ToolCallError::io(e, &full))?;
        Ok(format!("created {path}"))
    }

    #[tool(description = "Removes a file, with `?` alone.")]
    async fn remove_file(
        &self,
        Parameters(PathArgument { path }): Parameters<PathArgument>,
    ) -> Result<String, ToolCallError> {
        std::fs::remove_file(self.root.join(&path))?;
        Ok(format!("removed {path}"))
    }

    #[tool(description = "Loads the server's configuration.")]
    async fn load_config(&self, Parameters(Empty {}): Parameters<Empty>) -> Result<String, ToolCallError> {
        let text = std::fs::read_to_string(&self.config).map_err(|e| ToolCallError::io(e, &self.config))?;
        Ok(text)
    }

    #[tool(description = "Fetches a URL.")]
    async fn fetch(&self, Parameters(UrlArgument { url }): Parameters<UrlArgument>) -> Result<String, ToolCallError> {
        let response = http().get(&url).send().await?.error_for_status()?;
        Ok(response.text().await?)
    }

    #[tool(description = "Fetches a URL, waiting 50 ms at most.")]
    async fn fetch_quickly(
        &self,
        Parameters(UrlArgument { url }): Parameters<UrlArgument>,
    ) -> Result<String, ToolCallError> {
        let client = client(reqwest::Client::builder().timeout(Duration::from_millis(50)));
        let response = client.get(&url).send().await?.error_for_status()?;
        Ok(response.text().await?)
    }

    #[tool(description = "Syncs with the upstream.")]
    async fn sync(&self, Parameters(Empty {}): Parameters<Empty>) -> Result<String, ToolCallError> {
        let response = http().get(&self.upstream).send().await?.error_for_status()?;
        Ok(response.text().await?)
    }

    #[tool(description = "Parses settings.")]
    async fn parse_settings(
        &self,
        Parameters(TextArgument { text }): Parameters<TextArgument>,
    ) -> Result<String, ToolCallError> {
        let settings: Settings = serde_json::from_str(&text).map_err(ToolCallError::internal)?;
        Ok(format!("{settings:?}"))
    }

    #[tool(description = "Charges a card.")]
    async fn charge(
        &self,
        Parameters(TextArgument { text }): Parameters<TextArgument>,
    ) -> Result<String, ToolCallError> {
        panic!("card processor refused {text} with api_key=sk_live_RUSTSECRET07")
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Workspace {}

/// A folder of its own under the system's temporary folder.
fn fresh_root() -> PathBuf {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let root = std::env::temp_dir().join(format!(
        "mcp-envelope-thrown-{}-{}",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("notes")).unwrap();
    std::fs::write(root.join("notes/a.txt"), "alpha").unwrap();
    root
}

/// A loopback port nothing listens on, held (bound, never listening, so a
/// connection is refused) while the socket lives: a port bound and released
/// could be taken by another test's server meanwhile.
fn closed_port() -> (tokio::net::TcpSocket, u16) {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let port = socket.local_addr().unwrap().port();
    (socket, port)
}

/// A loopback HTTP server answering `/limited` with 429 and a Retry-After,
/// `/missing` with 404, anything else with 200.
fn http_server() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut request = Vec::new();
            let mut buffer = [0u8; 1024];
            while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                match stream.read(&mut buffer) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => request.extend_from_slice(&buffer[..n]),
                }
            }
            let request = String::from_utf8_lossy(&request);
            let status = match request.split(' ').nth(1).unwrap_or("") {
                path if path.starts_with("/limited") => "429 Too Many Requests\r\nRetry-After: 30",
                path if path.starts_with("/missing") => "404 Not Found",
                _ => "200 OK",
            };
            let answer = format!("HTTP/1.1 {status}\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
            let _ = stream.write_all(answer.as_bytes());
        }
    });
    port
}

/// A loopback server that takes connections (the system's backlog accepts
/// them) and never answers; kept open while the returned listener lives.
fn silent_server() -> (TcpListener, u16) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    (listener, port)
}

struct Connected {
    client: RunningService<RoleClient, ()>,
    log: Arc<Mutex<Vec<String>>>,
    root: PathBuf,
    /// The closed port of the server's upstream, held.
    _upstream: Option<tokio::net::TcpSocket>,
}

async fn connect(workspace: Workspace, format: Format) -> Connected {
    let log = Arc::new(Mutex::new(Vec::new()));
    let lines = Arc::clone(&log);
    let root = workspace.root.clone();
    let server = EnvelopeServer::new(workspace)
        .format(format)
        .log_with(move |line| lines.lock().unwrap().push(line.to_owned()));
    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        let running = server.serve(server_end).await.expect("the server starts");
        let _ = running.waiting().await;
    });
    let client = ().serve(client_end).await.expect("the client connects");
    Connected {
        client,
        log,
        root,
        _upstream: None,
    }
}

async fn workspace_server() -> Connected {
    let root = fresh_root();
    let config = root.join("token=sk_live_RUSTSECRET06/config.json");
    let (closed, port) = closed_port();
    let upstream = format!("http://127.0.0.1:{port}/v1/items?token=sk_live_RUSTSECRET02");
    let mut connected = connect(Workspace::new(root, config, upstream), Format::Xml).await;
    connected._upstream = Some(closed);
    connected
}

impl Drop for Connected {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

impl Connected {
    async fn call(&self, tool: &str, arguments: Value) -> CallToolResult {
        let Value::Object(arguments) = arguments else {
            panic!("arguments are an object")
        };
        let params = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
        self.client
            .call_tool(params)
            .await
            .expect("a result, not a JSON-RPC error")
    }

    /// The one text block of an `isError` result.
    async fn failure_text(&self, tool: &str, arguments: Value) -> String {
        let result = self.call(tool, arguments).await;
        assert_eq!(result.is_error, Some(true), "{result:?}");
        assert_eq!(result.content.len(), 1, "{result:?}");
        result.content[0].as_text().expect("a text block").text.clone()
    }

    fn log_lines(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }
}

/// The `err_` id the envelope carries.
fn correlation_id_in(text: &str) -> String {
    let start = text.find("<correlation_id>").expect("a correlation id") + "<correlation_id>".len();
    let id = &text[start..start + 16];
    assert!(id.starts_with("err_"), "{id}");
    id.to_owned()
}

/// The code of an XML envelope.
fn code_of(text: &str) -> &str {
    let start = text.find("code=\"").expect("an envelope") + "code=\"".len();
    let end = start + text[start..].find('"').unwrap();
    &text[start..end]
}

#[tokio::test]
async fn a_missing_file_the_model_named_is_not_found_naming_the_argument() {
    let server = workspace_server().await;
    let text = server
        .failure_text("read_file", json!({"path": "notes/missing.txt"}))
        .await;
    let id = correlation_id_in(&text);
    assert_eq!(
        text,
        format!(
            "\
<tool_error code=\"NOT_FOUND\" severity=\"error\">
  <message>No file or folder exists at path \"notes/missing.txt\".</message>
  <recovery>Check the identifier: look the item up or list the available ones, then call again with a real one.</recovery>
  <customer_message>We couldn't find what you asked for.</customer_message>
  <correlation_id>{id}</correlation_id>
</tool_error>"
        )
    );
    // The server's own folder stays in the log.
    let root = server.root.display();
    assert_eq!(
        server.log_lines(),
        [format!(
            "code=NOT_FOUND correlationId=\"{id}\" tool=\"read_file\" \
             exception=\"NotFound: No such file or directory (os error 2), path '{root}/notes/missing.txt'\""
        )]
    );
}

#[tokio::test]
async fn a_folder_created_again_is_a_conflict_and_a_folder_read_as_a_file_a_validation_error() {
    let server = workspace_server().await;
    let text = server.failure_text("create_folder", json!({"path": "notes"})).await;
    assert_eq!(code_of(&text), "CONFLICT");
    assert!(
        text.contains("<message>Something already exists at path \"notes\".</message>"),
        "{text}"
    );
    let text = server.failure_text("read_file", json!({"path": "notes"})).await;
    assert_eq!(code_of(&text), "VALIDATION_ERROR");
    assert!(
        text.contains("<message>A folder is at path \"notes\", where this call needs a file.</message>"),
        "{text}"
    );
    // A success still passes through untouched.
    let created = server.call("create_folder", json!({"path": "drafts"})).await;
    assert_eq!(created.is_error, Some(false));
    let logged: Vec<String> = server
        .log_lines()
        .iter()
        .map(|l| l[..l.find(' ').unwrap()].to_owned())
        .collect();
    assert_eq!(logged, ["code=CONFLICT", "code=VALIDATION_ERROR"]);
}

#[tokio::test]
async fn an_io_error_through_question_mark_alone_names_no_path() {
    let server = workspace_server().await;
    let text = server
        .failure_text("remove_file", json!({"path": "notes/gone.txt"}))
        .await;
    assert_eq!(code_of(&text), "NOT_FOUND");
    assert!(
        text.contains("<message>A file or folder this call needs does not exist.</message>"),
        "{text}"
    );
}

#[tokio::test]
async fn the_server_s_form_is_the_envelope_s() {
    let root = fresh_root();
    let workspace = Workspace::new(root.clone(), root.join("config.json"), String::new());
    let server = connect(workspace, Format::Text).await;
    let text = server
        .failure_text("read_file", json!({"path": "notes/missing.txt"}))
        .await;
    assert!(
        text.starts_with(
            "error_code: NOT_FOUND\nwhat_failed: No file or folder exists at path \"notes/missing.txt\".\n"
        ),
        "{text}"
    );
}

/// Served without the wrapper, the same error is answered alone: the code
/// its kind tells, naming no argument (the call is not known).
#[tokio::test]
async fn without_the_wrapper_a_library_s_failure_is_still_its_code() {
    let root = fresh_root();
    let workspace = Workspace::new(root.clone(), root.join("config.json"), String::new());
    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        let running = workspace.serve(server_end).await.expect("the server starts");
        let _ = running.waiting().await;
    });
    let client = ().serve(client_end).await.expect("the client connects");
    let Value::Object(arguments) = json!({"path": "notes/missing.txt"}) else {
        unreachable!()
    };
    let result = client
        .call_tool(CallToolRequestParams::new("read_file").with_arguments(arguments))
        .await
        .unwrap();
    let text = &result.content[0].as_text().unwrap().text;
    assert_eq!(code_of(text), "NOT_FOUND");
    assert!(
        text.contains("<message>A file or folder this call needs does not exist.</message>"),
        "{text}"
    );
    assert!(!text.contains(&root.display().to_string()));
    let _ = std::fs::remove_dir_all(&root);
}

/// One case of the leak corpus: a call whose failure a real library raises
/// holding `secret`, and the code the model must get.
struct Case {
    what: &'static str,
    tool: &'static str,
    arguments: Value,
    code: &'static str,
    secret: &'static str,
}

#[tokio::test]
async fn the_leak_corpus_reaches_the_model_as_its_code_and_without_its_secret() {
    let server = workspace_server().await;
    let http_port = http_server();
    let (_silent, silent_port) = silent_server();
    let (_closed, closed) = closed_port();
    let cases = [
        Case {
            what: "reqwest GET to a closed loopback port, the token in the URL the model sent",
            tool: "fetch",
            arguments: json!({"url": format!("http://127.0.0.1:{closed}/v1?token=sk_live_RUSTSECRET01")}),
            code: "UPSTREAM_UNAVAILABLE",
            secret: "RUSTSECRET01",
        },
        Case {
            what: "reqwest GET to a closed loopback port, the token in the server's own URL",
            tool: "sync",
            arguments: json!({}),
            code: "UPSTREAM_UNAVAILABLE",
            secret: "RUSTSECRET02",
        },
        Case {
            what: "reqwest's status error: a loopback server answering 429, the token in the URL",
            tool: "fetch",
            arguments: json!({"url": format!("http://127.0.0.1:{http_port}/limited?token=sk_live_RUSTSECRET03")}),
            code: "RATE_LIMITED",
            secret: "RUSTSECRET03",
        },
        Case {
            what: "reqwest's status error: 404, the key in the URL",
            tool: "fetch",
            arguments: json!({"url": format!("http://127.0.0.1:{http_port}/missing/inv_9?api_key=RUSTSECRET04x")}),
            code: "NOT_FOUND",
            secret: "RUSTSECRET04",
        },
        Case {
            what: "reqwest's 50 ms timeout against a loopback server that never answers",
            tool: "fetch_quickly",
            arguments: json!({"url": format!("http://127.0.0.1:{silent_port}/slow?sig=RUSTSECRET05abc")}),
            code: "TIMEOUT",
            secret: "RUSTSECRET05",
        },
        Case {
            what: "std's NotFound on a path holding a secret, not from the arguments",
            tool: "load_config",
            arguments: json!({}),
            code: "NOT_FOUND",
            secret: "RUSTSECRET06",
        },
        Case {
            what: "a panic whose message holds a key",
            tool: "charge",
            arguments: json!({"text": "4242"}),
            code: "INTERNAL_ERROR",
            secret: "RUSTSECRET07",
        },
        Case {
            what: "serde_json's error quoting the secret it read, returned as an internal error",
            tool: "parse_settings",
            arguments: json!({"text": "{\"port\": \"sk_live_RUSTSECRET08\"}"}),
            code: "INTERNAL_ERROR",
            secret: "RUSTSECRET08",
        },
    ];
    let mut leaked = Vec::new();
    println!("| library | error | code | leaked? |");
    for case in &cases {
        let result = server.call(case.tool, case.arguments.clone()).await;
        assert_eq!(result.is_error, Some(true), "{}: {result:?}", case.what);
        let text = &result.content[0].as_text().expect("a text block").text;
        // Everything the client received: the result as it travelled.
        let received = serde_json::to_string(&result).unwrap();
        let leaks = received.contains(case.secret) || received.contains(&server.root.display().to_string());
        println!(
            "| {} | {} | {} | {} |",
            case.tool,
            case.what,
            code_of(text),
            if leaks { "yes" } else { "no" }
        );
        assert_eq!(code_of(text), case.code, "{}: {text}", case.what);
        if leaks {
            leaked.push(case.what);
        }
    }
    println!("leak corpus (Rust): {} of {} secrets leaked", leaked.len(), cases.len());
    assert_eq!(leaked, Vec::<&str>::new());
    // Each failure has its one log line, where the operator finds the library's text.
    let log = server.log_lines();
    assert_eq!(log.len(), cases.len(), "{log:#?}");
    for (line, case) in log.iter().zip(&cases) {
        assert!(line.starts_with(&format!("code={} ", case.code)), "{line}");
        assert!(line.contains(case.secret), "the log keeps what failed: {line}");
    }
}

/// What the URL the model sent becomes in the message: its argument named,
/// its secret parameter scrubbed.
#[tokio::test]
async fn a_status_error_names_the_url_argument_scrubbed() {
    let server = workspace_server().await;
    let port = http_server();
    let url = format!("http://127.0.0.1:{port}/limited?token=sk_live_RUSTSECRET09");
    let text = server.failure_text("fetch", json!({ "url": url })).await;
    let id = correlation_id_in(&text);
    assert_eq!(
        text,
        format!(
            "\
<tool_error code=\"RATE_LIMITED\" severity=\"error\">
  <message>The service at url \"http://127.0.0.1:{port}/limited?token=[redacted]\" is rate limiting requests (HTTP 429).</message>
  <recovery>Wait for the retry-after period, then make the same call again.</recovery>
  <customer_message>The service is receiving too many requests right now. Please try again in a moment.</customer_message>
  <correlation_id>{id}</correlation_id>
</tool_error>"
        )
    );
    let (_closed, closed) = closed_port();
    let url = format!("http://127.0.0.1:{closed}/v1?token=sk_live_RUSTSECRET10");
    let text = server.failure_text("fetch", json!({ "url": url })).await;
    assert!(
        text.contains(&format!(
            "<message>The service at url \"http://127.0.0.1:{closed}/v1?token=[redacted]\" could not be reached.</message>"
        )),
        "{text}"
    );
}
