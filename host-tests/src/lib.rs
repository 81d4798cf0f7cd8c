//! A wasmtime embedder for the BUILT mcp-envelope components (not the
//! source): the envelope component (`build/envelope.wasm`, world
//! `envelope-only`) and the full one (`build/full.wasm`, world `full`).
//! Each is compiled once per process, on first use, and hands out fresh
//! instances, so the tests can check both say exactly what the native core
//! says.

use mcp_envelope as core;
use std::path::PathBuf;
use std::sync::OnceLock;
use wasmtime::component::{Component, Linker};
use wasmtime::{Engine, Store};

/// The `full` world's bindings: its interfaces are a superset of the
/// envelope component's, so one set of types serves both components.
mod full {
    wasmtime::component::bindgen!({ path: "../wit", world: "full" });
}

/// The `envelope-only` world's bindings, to check the envelope component
/// against its own world.
pub mod envelope_only {
    wasmtime::component::bindgen!({ path: "../wit", world: "envelope-only" });
}

pub use full::exports::mcp::envelope::types as wit;
pub use full::exports::mcp::envelope::{agent, contract, envelope, server};
pub use full::Full;

/// One of the two built components.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// `build/envelope.wasm`: interfaces `types` and `envelope`.
    Envelope,
    /// `build/full.wasm`: those and `server`, `agent`, `contract`.
    Full,
}

impl Which {
    pub const BOTH: [Which; 2] = [Which::Envelope, Which::Full];

    /// The file the build script writes.
    pub fn file_name(self) -> &'static str {
        match self {
            Which::Envelope => "envelope.wasm",
            Which::Full => "full.wasm",
        }
    }
}

/// Where the build script puts a component: `build/` at the repository's
/// root, or the folder `MCP_ENVELOPE_BUILD` names.
pub fn component_path(which: Which) -> PathBuf {
    let dir = match std::env::var_os("MCP_ENVELOPE_BUILD") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../build"),
    };
    dir.join(which.file_name())
}

static ENVELOPE: OnceLock<(Engine, Component)> = OnceLock::new();
static FULL: OnceLock<(Engine, Component)> = OnceLock::new();

fn cell(which: Which) -> &'static OnceLock<(Engine, Component)> {
    match which {
        Which::Envelope => &ENVELOPE,
        Which::Full => &FULL,
    }
}

/// The engine and a compiled component, made once per process and
/// component, on first use: a test that never asks for the full component
/// never compiles it.
pub fn loaded(which: Which) -> &'static (Engine, Component) {
    cell(which).get_or_init(|| load(component_path(which)))
}

/// Whether this process has compiled `which`.
pub fn is_loaded(which: Which) -> bool {
    cell(which).get().is_some()
}

/// Compiles the component at `path`, with a clear message when it is missing.
pub fn load(path: impl AsRef<std::path::Path>) -> (Engine, Component) {
    let path = path.as_ref();
    if !path.exists() {
        panic!(
            "the component {} does not exist: build it first with scripts/build-component \
             (scripts/test does), or point MCP_ENVELOPE_BUILD at a folder holding one",
            path.display()
        );
    }
    let engine = Engine::default();
    let component = Component::from_file(&engine, path)
        .unwrap_or_else(|e| panic!("{} is not a loadable component: {e:?}", path.display()));
    (engine, component)
}

/// One instance of a component in its own store.
pub struct Instance {
    pub store: Store<()>,
    /// The exported `envelope` interface's functions (in both components).
    pub envelope: envelope::Guest,
    /// The full component's other interfaces; `None` in the envelope component.
    rest: Option<(server::Guest, agent::Guest, contract::Guest)>,
    instance: wasmtime::component::Instance,
}

impl Instance {
    /// A fresh instance of the envelope component.
    pub fn new() -> Instance {
        Instance::of(Which::Envelope)
    }

    /// A fresh instance of the full component.
    pub fn full() -> Instance {
        Instance::of(Which::Full)
    }

    /// A fresh instance of `which`.
    pub fn of(which: Which) -> Instance {
        let (engine, component) = loaded(which);
        Instance::with(engine, component)
    }

    /// An instance of a component compiled by `engine`: either component,
    /// its `envelope` interface always, the others when it exports them.
    pub fn with(engine: &Engine, component: &Component) -> Instance {
        let mut store = Store::new(engine, ());
        // Both worlds import nothing, so an empty linker must do.
        let linker = Linker::new(engine);
        let instance = linker
            .instantiate(&mut store, component)
            .expect("instantiate the component");
        let pre = instance.instance_pre(&store);
        let envelope = envelope::GuestIndices::new(&pre)
            .and_then(|indices| indices.load(&mut store, &instance))
            .expect("the component exports the envelope interface");
        let rest = match server::GuestIndices::new(&pre) {
            Ok(server) => {
                let server = server.load(&mut store, &instance).expect("the server interface loads");
                let agent = agent::GuestIndices::new(&pre)
                    .and_then(|indices| indices.load(&mut store, &instance))
                    .expect("a component with the server interface has the agent interface");
                let contract = contract::GuestIndices::new(&pre)
                    .and_then(|indices| indices.load(&mut store, &instance))
                    .expect("a component with the server interface has the contract interface");
                Some((server, agent, contract))
            }
            Err(_) => None,
        };
        Instance {
            store,
            envelope,
            rest,
            instance,
        }
    }

    fn rest(&self) -> &(server::Guest, agent::Guest, contract::Guest) {
        self.rest
            .as_ref()
            .expect("the server, agent and contract interfaces are the full component's")
    }

    /// The `server` interface's functions (the full component's).
    pub fn server(&self) -> server::Guest {
        self.rest().0.clone()
    }

    /// The `agent` interface's functions (the full component's).
    pub fn agent(&self) -> agent::Guest {
        self.rest().1.clone()
    }

    /// The `contract` interface's functions (the full component's).
    pub fn contract(&self) -> contract::Guest {
        self.rest().2.clone()
    }

    /// Calls the export named `export` (its WIT name) with one JSON request,
    /// found by name in whichever interface holds it, as a host in any
    /// language finds it: `None` when no interface of this component has an
    /// export of that name.
    pub fn call_export(&mut self, export: &str, request: &str) -> wasmtime::Result<Option<Result<String, String>>> {
        for interface in INTERFACES {
            let name = interface_name(interface);
            let Some(exported) = self.instance.get_export_index(&mut self.store, None, &name) else {
                continue;
            };
            let Some(index) = self.instance.get_export_index(&mut self.store, Some(&exported), export) else {
                continue;
            };
            let function = self
                .instance
                .get_typed_func::<(&str,), (Result<String, String>,)>(&mut self.store, &index)?;
            let (answer,) = function.call(&mut self.store, (request,))?;
            return Ok(Some(answer));
        }
        Ok(None)
    }
}

impl Default for Instance {
    fn default() -> Self {
        Instance::new()
    }
}

/// The interfaces with functions, in the order `call_export` looks.
pub const INTERFACES: [&str; 4] = ["envelope", "server", "agent", "contract"];

/// The interface `name` of the WIT package as a component exports it,
/// versioned as the package (`package mcp:envelope@1.0.0;` and `envelope`
/// give `mcp:envelope/envelope@1.0.0`).
pub fn interface_name(name: &str) -> String {
    let version = include_str!("../../wit/worlds.wit")
        .lines()
        .find_map(|line| line.trim().strip_prefix("package mcp:envelope@")?.strip_suffix(';'))
        .expect("wit/worlds.wit names its package");
    format!("mcp:envelope/{name}@{version}")
}

/// The WIT names of the `envelope` interface's functions, read from
/// wit/envelope.wit: the calls both components answer.
pub fn envelope_functions() -> Vec<&'static str> {
    include_str!("../../wit/envelope.wit")
        .lines()
        .filter_map(|line| line.trim().split_once(": func("))
        .map(|(name, _)| name)
        .collect()
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
