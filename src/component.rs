//! The WebAssembly component's glue: the only module that knows WIT. It
//! converts between the generated types and the core's, and nothing else.

use crate::validation::{
    self, Bound, ContractDelta, DeltaSeverity, IssueCode, PathSegment, ValidationEnvelope, ValidationIssue,
    ValidationOptions, ValidationSpec,
};
use crate::{code, spec, Category, Format, ParseError, ProtocolErrorKind, Severity, ToolError};

wit_bindgen::generate!({ path: "wit", world: "envelope" });

use exports::mcp::envelope::api::Guest;
use exports::mcp::envelope::types as wit;

struct Component;

export!(Component);

impl Guest for Component {
    fn canonical_codes() -> Vec<String> {
        code::CANONICAL_CODES.iter().map(|c| c.to_string()).collect()
    }

    fn defaults_for(code: String) -> Option<wit::CodeDefaults> {
        code::defaults(&code).map(|d| wit::CodeDefaults {
            category: category_to_wit(d.category),
            retryable: d.retryable,
            recovery: d.recovery.to_owned(),
        })
    }

    fn render(error: wit::ToolError, format: wit::Format) -> String {
        crate::render(&from_wit(error), format_from_wit(format))
    }

    fn call_tool_result(error: wit::ToolError, format: wit::Format) -> String {
        crate::call_tool_result(&from_wit(error), format_from_wit(format))
    }

    fn protocol_error(kind: wit::ProtocolErrorKind, message: String, data: Option<wit::ToolError>) -> String {
        let data = data.map(from_wit);
        crate::protocol_error(kind_from_wit(kind), &message, data.as_ref())
    }

    fn parse(text: String) -> Result<wit::ToolError, wit::ParseFailure> {
        match crate::parse(&text) {
            Ok(error) => Ok(to_wit(error)),
            Err(ParseError::NoEnvelope) => Err(wit::ParseFailure::NoEnvelope),
            Err(ParseError::Malformed(why)) => Err(wit::ParseFailure::Malformed(why)),
        }
    }

    fn render_spec(spec: String, format: wit::Format) -> Result<String, String> {
        let error = spec::from_json(&spec).map_err(|e| e.to_string())?;
        Ok(crate::render(&error, format_from_wit(format)))
    }

    fn call_tool_result_spec(spec: String, format: wit::Format) -> Result<String, String> {
        let error = spec::from_json(&spec).map_err(|e| e.to_string())?;
        Ok(crate::call_tool_result(&error, format_from_wit(format)))
    }

    fn render_validation(
        action: String,
        issues: Vec<wit::ValidationIssue>,
        deltas: Vec<wit::ContractDelta>,
        options: wit::ValidationOptions,
    ) -> String {
        let spec = validation_spec(action, issues, deltas, options);
        validation::render_validation(&spec.action, &spec.issues, &spec.deltas, spec.options)
    }

    fn validation_result(
        action: String,
        issues: Vec<wit::ValidationIssue>,
        deltas: Vec<wit::ContractDelta>,
        options: wit::ValidationOptions,
    ) -> String {
        validation::validation_result(&validation_spec(action, issues, deltas, options))
    }

    fn parse_validation(text: String) -> Result<wit::ValidationEnvelope, wit::ParseFailure> {
        match validation::parse_validation(&text) {
            Ok(envelope) => Ok(envelope_to_wit(envelope)),
            Err(ParseError::NoEnvelope) => Err(wit::ParseFailure::NoEnvelope),
            Err(ParseError::Malformed(why)) => Err(wit::ParseFailure::Malformed(why)),
        }
    }

    fn render_validation_spec(spec: String) -> Result<String, String> {
        validation::render_validation_spec_json(&spec).map_err(|e| e.to_string())
    }

    fn validation_result_spec(spec: String) -> Result<String, String> {
        let spec = validation::validation_from_json(&spec).map_err(|e| e.to_string())?;
        Ok(validation::validation_result(&spec))
    }

    fn parse_validation_spec(text: String) -> Result<Option<String>, String> {
        match validation::parse_validation(&text) {
            Ok(envelope) => Ok(Some(validation::envelope_to_json(&envelope))),
            Err(ParseError::NoEnvelope) => Ok(None),
            Err(ParseError::Malformed(why)) => Err(why),
        }
    }

    fn parse_spec(text: String) -> Result<Option<String>, String> {
        match crate::parse(&text) {
            Ok(error) => Ok(Some(spec::to_json(&error))),
            Err(ParseError::NoEnvelope) => Ok(None),
            Err(ParseError::Malformed(why)) => Err(why),
        }
    }
}

fn from_wit(e: wit::ToolError) -> ToolError {
    ToolError {
        code: e.code,
        message: e.message,
        suggestion: e.suggestion,
        available_actions: e.available_actions,
        details: e.details.into_iter().map(|d| (d.key, d.value)).collect(),
        retry_after: e.retry_after,
        severity: match e.severity {
            wit::Severity::Error => Severity::Error,
            wit::Severity::Critical => Severity::Critical,
            wit::Severity::Warning => Severity::Warning,
        },
        category: e.category.map(|c| match c {
            wit::Category::Transient => Category::Transient,
            wit::Category::Validation => Category::Validation,
            wit::Category::Business => Category::Business,
            wit::Category::Permission => Category::Permission,
            wit::Category::Internal => Category::Internal,
        }),
        retryable: e.retryable,
        customer_message: e.customer_message,
        correlation_id: e.correlation_id,
        deltas: e.deltas.into_iter().map(delta_from_wit).collect(),
    }
}

fn to_wit(e: ToolError) -> wit::ToolError {
    wit::ToolError {
        code: e.code,
        message: e.message,
        suggestion: e.suggestion,
        available_actions: e.available_actions,
        details: e
            .details
            .into_iter()
            .map(|(key, value)| wit::Detail { key, value })
            .collect(),
        retry_after: e.retry_after,
        severity: match e.severity {
            Severity::Error => wit::Severity::Error,
            Severity::Critical => wit::Severity::Critical,
            Severity::Warning => wit::Severity::Warning,
        },
        category: e.category.map(category_to_wit),
        retryable: e.retryable,
        customer_message: e.customer_message,
        correlation_id: e.correlation_id,
        deltas: e.deltas.into_iter().map(delta_to_wit).collect(),
    }
}

fn category_to_wit(c: Category) -> wit::Category {
    match c {
        Category::Transient => wit::Category::Transient,
        Category::Validation => wit::Category::Validation,
        Category::Business => wit::Category::Business,
        Category::Permission => wit::Category::Permission,
        Category::Internal => wit::Category::Internal,
    }
}

fn format_from_wit(format: wit::Format) -> Format {
    match format {
        wit::Format::Xml => Format::Xml,
        wit::Format::Json => Format::Json,
        wit::Format::Text => Format::Text,
    }
}

fn kind_from_wit(kind: wit::ProtocolErrorKind) -> ProtocolErrorKind {
    match kind {
        wit::ProtocolErrorKind::ParseError => ProtocolErrorKind::ParseError,
        wit::ProtocolErrorKind::InvalidRequest => ProtocolErrorKind::InvalidRequest,
        wit::ProtocolErrorKind::MethodNotFound => ProtocolErrorKind::MethodNotFound,
        wit::ProtocolErrorKind::InvalidParams => ProtocolErrorKind::InvalidParams,
        wit::ProtocolErrorKind::InternalError => ProtocolErrorKind::InternalError,
    }
}

fn validation_spec(
    action: String,
    issues: Vec<wit::ValidationIssue>,
    deltas: Vec<wit::ContractDelta>,
    options: wit::ValidationOptions,
) -> ValidationSpec {
    ValidationSpec {
        action,
        issues: issues.into_iter().map(issue_from_wit).collect(),
        deltas: deltas.into_iter().map(delta_from_wit).collect(),
        options: ValidationOptions {
            max_fields: options.max_fields as usize,
            max_deltas: options.max_deltas as usize,
        },
    }
}

fn issue_from_wit(i: wit::ValidationIssue) -> ValidationIssue {
    let bound = |b: wit::Bound| Bound {
        value: b.value,
        inclusive: b.inclusive,
        exact: b.exact,
    };
    ValidationIssue {
        path: i
            .path
            .into_iter()
            .map(|s| match s {
                wit::PathSegment::Key(k) => PathSegment::Key(k),
                wit::PathSegment::Index(n) => PathSegment::Index(n),
            })
            .collect(),
        code: match i.code {
            wit::IssueCode::InvalidType => IssueCode::InvalidType,
            wit::IssueCode::TooSmall => IssueCode::TooSmall,
            wit::IssueCode::TooBig => IssueCode::TooBig,
            wit::IssueCode::InvalidFormat => IssueCode::InvalidFormat,
            wit::IssueCode::NotMultipleOf => IssueCode::NotMultipleOf,
            wit::IssueCode::UnrecognizedKeys => IssueCode::UnrecognizedKeys,
            wit::IssueCode::InvalidUnion => IssueCode::InvalidUnion,
            wit::IssueCode::InvalidKey => IssueCode::InvalidKey,
            wit::IssueCode::InvalidElement => IssueCode::InvalidElement,
            wit::IssueCode::InvalidValue => IssueCode::InvalidValue,
            wit::IssueCode::Custom => IssueCode::Custom,
            wit::IssueCode::MissingRequired => IssueCode::MissingRequired,
        },
        input: i.input,
        expected: i.expected,
        format: i.format,
        pattern: i.pattern,
        values: i.values,
        minimum: i.minimum.map(bound),
        maximum: i.maximum.map(bound),
        origin: i.origin,
        keys: i.keys,
        divisor: i.divisor,
        message: i.message,
    }
}

fn delta_from_wit(d: wit::ContractDelta) -> ContractDelta {
    ContractDelta {
        action: d.action,
        severity: match d.severity {
            wit::DeltaSeverity::Breaking => DeltaSeverity::Breaking,
            wit::DeltaSeverity::Risky => DeltaSeverity::Risky,
            wit::DeltaSeverity::Safe => DeltaSeverity::Safe,
            wit::DeltaSeverity::Cosmetic => DeltaSeverity::Cosmetic,
        },
        field: d.field,
        description: d.description,
        before: d.before,
        after: d.after,
    }
}

fn delta_to_wit(d: ContractDelta) -> wit::ContractDelta {
    wit::ContractDelta {
        action: d.action,
        severity: match d.severity {
            DeltaSeverity::Breaking => wit::DeltaSeverity::Breaking,
            DeltaSeverity::Risky => wit::DeltaSeverity::Risky,
            DeltaSeverity::Safe => wit::DeltaSeverity::Safe,
            DeltaSeverity::Cosmetic => wit::DeltaSeverity::Cosmetic,
        },
        field: d.field,
        description: d.description,
        before: d.before,
        after: d.after,
    }
}

fn envelope_to_wit(e: ValidationEnvelope) -> wit::ValidationEnvelope {
    let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    wit::ValidationEnvelope {
        action: e.action,
        fields: e
            .fields
            .into_iter()
            .map(|(name, text)| wit::FieldLine { name, text })
            .collect(),
        omitted_fields: count(e.omitted_fields),
        deltas: e.deltas.into_iter().map(delta_to_wit).collect(),
        omitted_deltas: count(e.omitted_deltas),
    }
}
