//! A wasmtime embedder for the BUILT mcp-envelope component (not the
//! source): compiles it once per process and hands out fresh instances, so
//! the tests can check it says exactly what the native core says.

use mcp_envelope as core;
use mcp_envelope::validation::{
    Bound, ContractDelta, DeltaSeverity, IssueCode, PathSegment, ValidationEnvelope, ValidationIssue, ValidationOptions,
};
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
    LOADED.get_or_init(|| load(&component_path()))
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
        deltas: e.deltas.iter().map(delta_to_wit).collect(),
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
        deltas: e.deltas.into_iter().map(delta_from_wit).collect(),
    }
}

fn delta_severity_to_wit(s: DeltaSeverity) -> wit::DeltaSeverity {
    match s {
        DeltaSeverity::Breaking => wit::DeltaSeverity::Breaking,
        DeltaSeverity::Risky => wit::DeltaSeverity::Risky,
        DeltaSeverity::Safe => wit::DeltaSeverity::Safe,
        DeltaSeverity::Cosmetic => wit::DeltaSeverity::Cosmetic,
    }
}

pub fn delta_to_wit(d: &ContractDelta) -> wit::ContractDelta {
    wit::ContractDelta {
        action: d.action.clone(),
        severity: delta_severity_to_wit(d.severity),
        field: d.field.clone(),
        description: d.description.clone(),
        before: d.before.clone(),
        after: d.after.clone(),
    }
}

pub fn delta_from_wit(d: wit::ContractDelta) -> ContractDelta {
    let severity = *DeltaSeverity::ALL
        .iter()
        .find(|s| delta_severity_to_wit(**s) == d.severity)
        .unwrap();
    ContractDelta {
        action: d.action,
        severity,
        field: d.field,
        description: d.description,
        before: d.before,
        after: d.after,
    }
}

pub fn issue_to_wit(i: &ValidationIssue) -> wit::ValidationIssue {
    let bound = |b: &Bound| wit::Bound {
        value: b.value.clone(),
        inclusive: b.inclusive,
        exact: b.exact,
    };
    let code = IssueCode::ALL.iter().position(|c| *c == i.code).unwrap();
    wit::ValidationIssue {
        path: i
            .path
            .iter()
            .map(|s| match s {
                PathSegment::Key(k) => wit::PathSegment::Key(k.clone()),
                PathSegment::Index(n) => wit::PathSegment::Index(*n),
            })
            .collect(),
        // The WIT enum lists the codes in the core's order.
        code: WIT_ISSUE_CODES[code],
        input: i.input.clone(),
        expected: i.expected.clone(),
        format: i.format.clone(),
        pattern: i.pattern.clone(),
        values: i.values.clone(),
        minimum: i.minimum.as_ref().map(bound),
        maximum: i.maximum.as_ref().map(bound),
        origin: i.origin.clone(),
        keys: i.keys.clone(),
        divisor: i.divisor.clone(),
        message: i.message.clone(),
    }
}

const WIT_ISSUE_CODES: [wit::IssueCode; 12] = [
    wit::IssueCode::InvalidType,
    wit::IssueCode::TooSmall,
    wit::IssueCode::TooBig,
    wit::IssueCode::InvalidFormat,
    wit::IssueCode::NotMultipleOf,
    wit::IssueCode::UnrecognizedKeys,
    wit::IssueCode::InvalidUnion,
    wit::IssueCode::InvalidKey,
    wit::IssueCode::InvalidElement,
    wit::IssueCode::InvalidValue,
    wit::IssueCode::Custom,
    wit::IssueCode::MissingRequired,
];

pub fn options_to_wit(o: ValidationOptions) -> wit::ValidationOptions {
    wit::ValidationOptions {
        max_fields: o.max_fields as u32,
        max_deltas: o.max_deltas as u32,
    }
}

pub fn envelope_from_wit(e: wit::ValidationEnvelope) -> ValidationEnvelope {
    ValidationEnvelope {
        action: e.action,
        fields: e.fields.into_iter().map(|f| (f.name, f.text)).collect(),
        omitted_fields: e.omitted_fields as usize,
        deltas: e.deltas.into_iter().map(delta_from_wit).collect(),
        omitted_deltas: e.omitted_deltas as usize,
    }
}
