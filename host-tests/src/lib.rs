//! A wasmtime embedder for the BUILT mcp-envelope component (not the
//! source): compiles it once per process and hands out fresh instances, so
//! the tests can check it says exactly what the native core says.

use mcp_envelope as core;
use std::path::PathBuf;
use std::sync::OnceLock;
use wasmtime::component::{Component, Linker};
use wasmtime::{Engine, Store};

wasmtime::component::bindgen!({ path: "../wit", world: "envelope" });

pub use exports::mcp::envelope::types as wit;

/// Where the build script puts the component; `MCP_ENVELOPE_COMPONENT` overrides.
pub fn component_path() -> PathBuf {
    match std::env::var_os("MCP_ENVELOPE_COMPONENT") {
        Some(path) => path.into(),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../build/mcp-envelope.wasm"),
    }
}

/// The engine and the compiled component, made once per process.
pub fn loaded() -> &'static (Engine, Component) {
    static LOADED: OnceLock<(Engine, Component)> = OnceLock::new();
    LOADED.get_or_init(|| {
        let path = component_path();
        if !path.exists() {
            panic!(
                "the component {} does not exist: build it first with scripts/build-component \
                 (scripts/test does), or point MCP_ENVELOPE_COMPONENT at one",
                path.display()
            );
        }
        let engine = Engine::default();
        let component = Component::from_file(&engine, &path)
            .unwrap_or_else(|e| panic!("{} is not a loadable component: {e:?}", path.display()));
        (engine, component)
    })
}

/// One instance of the component in its own store.
pub struct Instance {
    pub store: Store<()>,
    /// The exported `api` interface's functions.
    pub api: exports::mcp::envelope::api::Guest,
}

impl Instance {
    pub fn new() -> Instance {
        let (engine, component) = loaded();
        let mut store = Store::new(engine, ());
        // The world imports nothing, so an empty linker must do.
        let linker = Linker::new(engine);
        let envelope = Envelope::instantiate(&mut store, component, &linker).expect("instantiate the component");
        Instance {
            store,
            api: envelope.mcp_envelope_api().clone(),
        }
    }
}

impl Default for Instance {
    fn default() -> Self {
        Instance::new()
    }
}

pub fn format_to_wit(format: core::Format) -> wit::Format {
    match format {
        core::Format::Xml => wit::Format::Xml,
        core::Format::Json => wit::Format::Json,
        core::Format::Text => wit::Format::Text,
    }
}

pub fn kind_to_wit(kind: core::ProtocolErrorKind) -> wit::ProtocolErrorKind {
    use core::ProtocolErrorKind as K;
    match kind {
        K::ParseError => wit::ProtocolErrorKind::ParseError,
        K::InvalidRequest => wit::ProtocolErrorKind::InvalidRequest,
        K::MethodNotFound => wit::ProtocolErrorKind::MethodNotFound,
        K::InvalidParams => wit::ProtocolErrorKind::InvalidParams,
        K::InternalError => wit::ProtocolErrorKind::InternalError,
    }
}

pub fn category_from_wit(c: wit::Category) -> core::Category {
    core::Category::from_wire(match c {
        wit::Category::Transient => "transient",
        wit::Category::Validation => "validation",
        wit::Category::Business => "business",
        wit::Category::Permission => "permission",
        wit::Category::Internal => "internal",
    })
    .unwrap()
}

fn category_to_wit(c: core::Category) -> wit::Category {
    match c {
        core::Category::Transient => wit::Category::Transient,
        core::Category::Validation => wit::Category::Validation,
        core::Category::Business => wit::Category::Business,
        core::Category::Permission => wit::Category::Permission,
        core::Category::Internal => wit::Category::Internal,
    }
}

pub fn to_wit(e: &core::ToolError) -> wit::ToolError {
    wit::ToolError {
        code: e.code.clone(),
        message: e.message.clone(),
        suggestion: e.suggestion.clone(),
        available_actions: e.available_actions.clone(),
        details: e
            .details
            .iter()
            .map(|(key, value)| wit::Detail {
                key: key.clone(),
                value: value.clone(),
            })
            .collect(),
        retry_after: e.retry_after,
        severity: match e.severity {
            core::Severity::Error => wit::Severity::Error,
            core::Severity::Critical => wit::Severity::Critical,
            core::Severity::Warning => wit::Severity::Warning,
        },
        category: e.category.map(category_to_wit),
        retryable: e.retryable,
        customer_message: e.customer_message.clone(),
        correlation_id: e.correlation_id.clone(),
    }
}

pub fn from_wit(e: wit::ToolError) -> core::ToolError {
    core::ToolError {
        code: e.code,
        message: e.message,
        suggestion: e.suggestion,
        available_actions: e.available_actions,
        details: e.details.into_iter().map(|d| (d.key, d.value)).collect(),
        retry_after: e.retry_after,
        severity: match e.severity {
            wit::Severity::Error => core::Severity::Error,
            wit::Severity::Critical => core::Severity::Critical,
            wit::Severity::Warning => core::Severity::Warning,
        },
        category: e.category.map(category_from_wit),
        retryable: e.retryable,
        customer_message: e.customer_message,
        correlation_id: e.correlation_id,
    }
}
