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
    LOADED.get_or_init(|| load(component_path()))
}

/// Compiles the component at `path`, with a clear message when it is missing.
pub fn load(path: impl AsRef<std::path::Path>) -> (Engine, Component) {
    let path = path.as_ref();
    if !path.exists() {
        panic!(
            "the component {} does not exist: build it first with scripts/build-component \
             (scripts/test does), or point MCP_ENVELOPE_COMPONENT at one",
            path.display()
        );
    }
    let engine = Engine::default();
    let component = Component::from_file(&engine, path)
        .unwrap_or_else(|e| panic!("{} is not a loadable component: {e:?}", path.display()));
    (engine, component)
}

/// One instance of the component in its own store.
pub struct Instance {
    pub store: Store<()>,
    /// The exported `api` interface's functions.
    pub api: exports::mcp::envelope::api::Guest,
    instance: wasmtime::component::Instance,
}

impl Instance {
    pub fn new() -> Instance {
        let (engine, component) = loaded();
        Instance::with(engine, component)
    }

    /// An instance of a component compiled by `engine`.
    pub fn with(engine: &Engine, component: &Component) -> Instance {
        let mut store = Store::new(engine, ());
        // The world imports nothing, so an empty linker must do.
        let linker = Linker::new(engine);
        let instance = linker
            .instantiate(&mut store, component)
            .expect("instantiate the component");
        let envelope = Envelope::new(&mut store, &instance).expect("the component has the envelope world's exports");
        Instance {
            store,
            api: envelope.mcp_envelope_api().clone(),
            instance,
        }
    }

    /// Calls the `api` export named `export` (its WIT name) with one JSON
    /// request, found by name as a host in any language finds it: `None`
    /// when the interface has no export of that name.
    pub fn call_export(&mut self, export: &str, request: &str) -> wasmtime::Result<Option<Result<String, String>>> {
        let interface = api_interface();
        let api = self
            .instance
            .get_export_index(&mut self.store, None, &interface)
            .ok_or_else(|| wasmtime::format_err!("the component exports no {interface}"))?;
        let Some(index) = self.instance.get_export_index(&mut self.store, Some(&api), export) else {
            return Ok(None);
        };
        let function = self
            .instance
            .get_typed_func::<(&str,), (Result<String, String>,)>(&mut self.store, &index)?;
        let (answer,) = function.call(&mut self.store, (request,))?;
        Ok(Some(answer))
    }
}

/// The `api` interface's name as the component exports it, versioned as the
/// WIT package (`package mcp:envelope@0.8.0;` gives `mcp:envelope/api@0.8.0`).
fn api_interface() -> String {
    let package = include_str!("../../wit/api.wit")
        .lines()
        .find_map(|line| line.trim().strip_prefix("package mcp:envelope@")?.strip_suffix(';'))
        .expect("wit/api.wit names its package");
    format!("mcp:envelope/api@{package}")
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
    match kind {
        core::ProtocolErrorKind::ParseError => wit::ProtocolErrorKind::ParseError,
        core::ProtocolErrorKind::InvalidRequest => wit::ProtocolErrorKind::InvalidRequest,
        core::ProtocolErrorKind::MethodNotFound => wit::ProtocolErrorKind::MethodNotFound,
        core::ProtocolErrorKind::InvalidParams => wit::ProtocolErrorKind::InvalidParams,
        core::ProtocolErrorKind::InternalError => wit::ProtocolErrorKind::InternalError,
    }
}
