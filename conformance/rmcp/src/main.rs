//! A conformance server on rmcp, the official Rust SDK: every tool, resource
//! and prompt the official suite's server scenarios call for, written as rmcp
//! servers are (`#[tool_router]` and `#[prompt_router]` on a `ServerHandler`,
//! declared capabilities), served over rmcp's Streamable HTTP server
//! transport with one handler per session. `wrapped` adds mcp-envelope with
//! the one line docs/rmcp.md asks for: the handler inside `EnvelopeServer`.
//!
//! usage: conformance-rmcp plain|wrapped PORT

// Logging, sampling and `resources/subscribe` are deprecated in rmcp by
// SEP-2577 and the 2026-07-28 revision, but the 2025-11-25 revision the suite
// tests still has them.
#![allow(deprecated)]

mod content;

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_envelope::rmcp::EnvelopeServer;
use rmcp::handler::server::router::prompt::PromptRouter;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, CompleteRequestParams, CompleteResult, CompletionInfo, ContentBlock, CreateMessageRequestParams,
    ElicitRequestParams, ElicitationSchema, Implementation, JsonObject, ListResourceTemplatesResult,
    ListResourcesResult, LoggingLevel, LoggingMessageNotificationParam, PaginatedRequestParams,
    ProgressNotificationParam, PromptMessage, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
    Reference, Resource, ResourceContents, ResourceTemplate, Role, SamplingContent, SamplingMessage,
    SamplingMessageContentBlock, ServerCapabilities, ServerConfig, SetLevelRequestParams, SubscribeRequestParams,
    UnsubscribeRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{
    prompt, prompt_handler, prompt_router, tool, tool_handler, tool_router, ErrorData, RoleServer, ServerHandler,
};
use serde::Deserialize;
use serde_json::{json, Value};

use content::{
    address_book_entry_schema, choices_form, complete_word, contact_form, profile_form_with_defaults, PNG_PIXEL,
    WAV_SILENCE,
};

/// One session's server: its tools and prompts, the level `logging/setLevel`
/// set, and the resources the client subscribed to.
#[derive(Clone)]
struct Conformance {
    tool_router: ToolRouter<Self>,
    prompt_router: PromptRouter<Self>,
    log_level: Arc<Mutex<LoggingLevel>>,
    subscriptions: Arc<Mutex<HashSet<String>>>,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct SamplingRequest {
    /// The prompt to send to the LLM
    prompt: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct ElicitationRequest {
    /// The message to show the user
    message: String,
}

#[derive(Deserialize, serde::Serialize, schemars::JsonSchema)]
struct AddressBookEntry {
    name: Option<String>,
    address: Option<Address>,
}

#[derive(Deserialize, serde::Serialize, schemars::JsonSchema)]
struct Address {
    street: Option<String>,
    city: Option<String>,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct PromptArguments {
    /// First argument
    arg1: String,
    /// Second argument
    arg2: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
struct EmbeddedResourceArguments {
    /// URI of the resource to embed
    resource_uri: String,
}

#[tool_router]
impl Conformance {
    fn new() -> Self {
        Conformance {
            tool_router: Self::tool_router(),
            prompt_router: Self::prompt_router(),
            log_level: Arc::new(Mutex::new(LoggingLevel::Debug)),
            subscriptions: Arc::new(Mutex::new(HashSet::new())),
        }
    }

    #[tool(description = "Returns one block of text")]
    async fn test_simple_text(&self) -> String {
        "This is a simple text response for testing.".to_owned()
    }

    #[tool(description = "Returns a 1×1 PNG image")]
    async fn test_image_content(&self) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::image(PNG_PIXEL, "image/png")])
    }

    #[tool(description = "Returns a short WAV clip of silence")]
    async fn test_audio_content(&self) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::audio(WAV_SILENCE, "audio/wav")])
    }

    #[tool(description = "Returns a text resource embedded in the result")]
    async fn test_embedded_resource(&self) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::resource(
            ResourceContents::text("This is an embedded resource content.", "test://embedded-resource")
                .with_mime_type("text/plain"),
        )])
    }

    #[tool(description = "Returns text, an image and an embedded resource together")]
    async fn test_multiple_content_types(&self) -> CallToolResult {
        CallToolResult::success(vec![
            ContentBlock::text("Multiple content types test:"),
            ContentBlock::image(PNG_PIXEL, "image/png"),
            ContentBlock::resource(
                ResourceContents::text(
                    json!({"test": "data", "value": 123}).to_string(),
                    "test://mixed-content-resource",
                )
                .with_mime_type("application/json"),
            ),
        ])
    }

    #[tool(description = "Sends three info log messages while it runs")]
    async fn test_tool_with_logging(&self, context: RequestContext<RoleServer>) -> Result<String, ErrorData> {
        for (step, message) in [
            "Tool execution started",
            "Tool processing data",
            "Tool execution completed",
        ]
        .into_iter()
        .enumerate()
        {
            if step > 0 {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            self.log(&context, LoggingLevel::Info, message).await?;
        }
        Ok("Logged three messages.".to_owned())
    }

    #[tool(description = "Reports progress 0, 50 and 100 of 100 when the call asks for progress")]
    async fn test_tool_with_progress(&self, context: RequestContext<RoleServer>) -> Result<String, ErrorData> {
        let progress_token = context.meta.get_progress_token();
        for progress in [0.0, 50.0, 100.0] {
            if progress > 0.0 {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            if let Some(token) = &progress_token {
                let notification = ProgressNotificationParam::new(token.clone(), progress).with_total(100.0);
                context.peer.notify_progress(notification).await.map_err(sent_nothing)?;
            }
        }
        Ok("Progress reported: 100 of 100.".to_owned())
    }

    #[tool(description = "Always fails")]
    async fn test_error_handling(&self) -> Result<CallToolResult, ErrorData> {
        // rmcp's way to tell the caller a tool failed: a result with isError,
        // not a JSON-RPC error (which clients show as a protocol failure).
        Ok(CallToolResult::error(vec![ContentBlock::text(
            "This tool intentionally returns an error for testing",
        )]))
    }

    #[tool(description = "Asks the client for an LLM completion of the prompt")]
    async fn test_sampling(
        &self,
        Parameters(SamplingRequest { prompt }): Parameters<SamplingRequest>,
        context: RequestContext<RoleServer>,
    ) -> Result<String, ErrorData> {
        let request = CreateMessageRequestParams::new(vec![SamplingMessage::user_text(prompt)], 100);
        let reply = context.peer.create_message(request).await.map_err(sent_nothing)?;
        let text = match &reply.message.content {
            SamplingContent::Single(SamplingMessageContentBlock::Text(text)) => text.text.clone(),
            _ => "(a reply that is not text)".to_owned(),
        };
        Ok(format!("LLM response: {text}"))
    }

    #[tool(description = "Asks the user for a username and email address")]
    async fn test_elicitation(
        &self,
        Parameters(ElicitationRequest { message }): Parameters<ElicitationRequest>,
        context: RequestContext<RoleServer>,
    ) -> Result<String, ErrorData> {
        let answer = elicit(&context, message, contact_form()).await?;
        Ok(format!("User response: {answer}"))
    }

    #[tool(description = "Asks the user to review a form whose fields have defaults (SEP-1034)")]
    async fn test_elicitation_sep1034_defaults(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<String, ErrorData> {
        let answer = elicit(
            &context,
            "Please review your profile".to_owned(),
            profile_form_with_defaults(),
        )
        .await?;
        Ok(format!("Elicitation completed: {answer}"))
    }

    #[tool(description = "Asks the user to pick from each kind of choice field (SEP-1330)")]
    async fn test_elicitation_sep1330_enums(&self, context: RequestContext<RoleServer>) -> Result<String, ErrorData> {
        let answer = elicit(&context, "Please choose".to_owned(), choices_form()).await?;
        Ok(format!("Elicitation completed: {answer}"))
    }

    // The listed schema is written out: one rmcp would derive from the type
    // has no `$schema` of 2020-12, and the scenario checks it is kept.
    #[tool(
        description = "Takes a name and an address; its input schema is JSON Schema 2020-12 (SEP-1613)",
        input_schema = Arc::new(json_object(address_book_entry_schema()))
    )]
    async fn json_schema_2020_12_tool(&self, Parameters(entry): Parameters<AddressBookEntry>) -> String {
        format!("Address book entry: {}", json!(entry))
    }
}

#[prompt_router]
impl Conformance {
    #[prompt(description = "A prompt without arguments")]
    async fn test_simple_prompt(&self) -> Vec<PromptMessage> {
        vec![PromptMessage::new_text(
            Role::User,
            "This is a simple prompt for testing.",
        )]
    }

    #[prompt(description = "A prompt that repeats its two arguments")]
    async fn test_prompt_with_arguments(
        &self,
        Parameters(arguments): Parameters<PromptArguments>,
    ) -> Vec<PromptMessage> {
        let PromptArguments { arg1, arg2 } = arguments;
        vec![PromptMessage::new_text(
            Role::User,
            format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"),
        )]
    }

    #[prompt(description = "A prompt that embeds the resource it is given")]
    async fn test_prompt_with_embedded_resource(
        &self,
        Parameters(EmbeddedResourceArguments { resource_uri }): Parameters<EmbeddedResourceArguments>,
    ) -> Vec<PromptMessage> {
        vec![
            PromptMessage::new(
                Role::User,
                ContentBlock::resource(
                    ResourceContents::text("Embedded resource content for testing.", resource_uri)
                        .with_mime_type("text/plain"),
                ),
            ),
            PromptMessage::new_text(Role::User, "Please process the embedded resource above."),
        ]
    }

    #[prompt(description = "A prompt that shows an image")]
    async fn test_prompt_with_image(&self) -> Vec<PromptMessage> {
        vec![
            PromptMessage::new(Role::User, ContentBlock::image(PNG_PIXEL, "image/png")),
            PromptMessage::new_text(Role::User, "Please analyze the image above."),
        ]
    }
}

#[tool_handler(router = self.tool_router)]
#[prompt_handler(router = self.prompt_router)]
impl ServerHandler for Conformance {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .enable_resources()
            .enable_resources_subscribe()
            .enable_resources_list_changed()
            .enable_prompts()
            .enable_prompts_list_changed()
            .enable_logging()
            .enable_completions()
            .build();
        ServerConfig::new(capabilities).with_server_info(Implementation::new("conformance-rmcp", "1.0.0"))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![
            Resource::new("test://static-text", "static-text")
                .with_title("Static text")
                .with_description("A text resource that never changes")
                .with_mime_type("text/plain"),
            Resource::new("test://static-binary", "static-binary")
                .with_title("Static binary")
                .with_description("A 1×1 PNG image")
                .with_mime_type("image/png"),
            Resource::new("test://watched-resource", "watched-resource")
                .with_title("Watched resource")
                .with_description("A resource clients may subscribe to")
                .with_mime_type("text/plain"),
        ]))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(vec![
            ResourceTemplate::new("test://template/{id}/data", "template")
                .with_title("Data by id")
                .with_description("JSON data for the id in the URI")
                .with_mime_type("application/json"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri;
        let contents = match uri.as_str() {
            "test://static-text" => ResourceContents::text("This is the content of the static text resource.", &uri)
                .with_mime_type("text/plain"),
            "test://static-binary" => ResourceContents::blob(PNG_PIXEL, &uri).with_mime_type("image/png"),
            "test://watched-resource" => {
                ResourceContents::text("Watched resource content", &uri).with_mime_type("text/plain")
            }
            _ => match template_id(&uri) {
                Some(id) => {
                    let data = json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")});
                    ResourceContents::text(data.to_string(), &uri).with_mime_type("application/json")
                }
                None => return Err(ErrorData::resource_not_found(format!("No resource at {uri}"), None)),
            },
        };
        Ok(ReadResourceResult::new(vec![contents]).into())
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        lock(&self.subscriptions).insert(request.uri);
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        lock(&self.subscriptions).remove(&request.uri);
        Ok(())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let values = match &request.r#ref {
            Reference::Prompt(prompt)
                if prompt.name == "test_prompt_with_arguments" && request.argument.name == "arg1" =>
            {
                complete_word(&request.argument.value)
            }
            _ => Vec::new(),
        };
        let completion = CompletionInfo::new(values).map_err(|why| ErrorData::internal_error(why, None))?;
        Ok(CompleteResult::new(completion))
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        *lock(&self.log_level) = request.level;
        Ok(())
    }
}

impl Conformance {
    /// Sends a log message unless `logging/setLevel` asked for a higher level.
    async fn log(
        &self,
        context: &RequestContext<RoleServer>,
        level: LoggingLevel,
        message: &str,
    ) -> Result<(), ErrorData> {
        if severity(level) < severity(*lock(&self.log_level)) {
            return Ok(());
        }
        let notification = LoggingMessageNotificationParam::new(level, Value::from(message));
        context
            .peer
            .notify_logging_message(notification)
            .await
            .map_err(sent_nothing)
    }
}

/// Asks the client to fill in `form`; the answer as `action=…, content=…`.
async fn elicit(context: &RequestContext<RoleServer>, message: String, form: Value) -> Result<String, ErrorData> {
    let requested_schema = ElicitationSchema::from_json_schema(json_object(form))
        .map_err(|why| ErrorData::internal_error(format!("the form is not an elicitation schema: {why}"), None))?;
    let request = ElicitRequestParams::FormElicitationParams {
        meta: None,
        message,
        requested_schema,
    };
    let answer = context.peer.create_elicitation(request).await.map_err(sent_nothing)?;
    let action = serde_json::to_value(answer.action).unwrap_or_default();
    let content = answer.content.unwrap_or_else(|| json!({}));
    Ok(format!(
        "action={}, content={content}",
        action.as_str().unwrap_or_default()
    ))
}

/// The id in `test://template/{id}/data`.
fn template_id(uri: &str) -> Option<&str> {
    let id = uri.strip_prefix("test://template/")?.strip_suffix("/data")?;
    (!id.is_empty() && !id.contains('/')).then_some(id)
}

/// Log levels from least to most severe, as the specification orders them.
fn severity(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}

fn json_object(value: Value) -> JsonObject {
    match value {
        Value::Object(object) => object,
        _ => JsonObject::new(),
    }
}

/// A poisoned lock only means another call panicked holding it; the set is still whole.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A request to the client, or a notification, that could not be sent.
fn sent_nothing(error: impl std::fmt::Display) -> ErrorData {
    ErrorData::internal_error(format!("could not reach the client: {error}"), None)
}

/// Serves a fresh handler from `make` per session at
/// `http://127.0.0.1:PORT/mcp` until killed; says `listening` once bound.
/// rmcp's default configuration accepts only loopback `Host` headers (DNS
/// rebinding protection) and keeps sessions.
async fn serve<S: ServerHandler + Send + 'static>(
    port: u16,
    make: impl Fn() -> S + Send + Sync + 'static,
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    let service = StreamableHttpService::new(
        move || Ok(make()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let app = axum::Router::new().nest_service("/mcp", service);
    println!("listening");
    axum::serve(listener, app).await
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let port = arguments.get(1).and_then(|port| port.parse::<u16>().ok());
    let served = match (arguments.first().map(String::as_str), port) {
        (Some("plain"), Some(port)) => serve(port, Conformance::new).await,
        (Some("wrapped"), Some(port)) => serve(port, || EnvelopeServer::new(Conformance::new())).await,
        _ => {
            eprintln!(
                "usage: conformance-rmcp plain|wrapped PORT  (serves MCP Streamable HTTP at http://127.0.0.1:PORT/mcp)"
            );
            std::process::exit(2);
        }
    };
    if let Err(error) = served {
        eprintln!(
            "conformance-rmcp: cannot serve on 127.0.0.1:{}: {error}",
            port.unwrap_or_default()
        );
        std::process::exit(1);
    }
}
