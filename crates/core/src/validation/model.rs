//! The validator-neutral issue model: what a validator found wrong with one
//! argument, in structured fields, so every validator's issues read alike.

use super::path::PathSegment;
use crate::locale::Locale;

/// What kind of problem an issue is: Zod 4's issue codes, plus `MissingRequired`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IssueCode {
    /// The value has the wrong type (`expected` names the right one).
    InvalidType,
    /// Below a `minimum`: too short, too small, too few items, too early.
    TooSmall,
    /// Above a `maximum`: too long, too large, too many items, too late.
    TooBig,
    /// A string not in the expected `format` (with its `pattern` for `regex`).
    InvalidFormat,
    /// A number that is not a multiple of `divisor`.
    NotMultipleOf,
    /// An object with keys the schema does not declare (`keys`).
    UnrecognizedKeys,
    /// A value that matches none of the allowed shapes.
    InvalidUnion,
    /// A key of a record or map that is not of the allowed form.
    InvalidKey,
    /// An element of a map or set that is not of the allowed form.
    InvalidElement,
    /// A value that is not one of the allowed `values`.
    InvalidValue,
    /// A check of the schema's own failed; the line uses the validator's `message`.
    Custom,
    /// A required field was not sent at all.
    MissingRequired,
}

string_enum!(IssueCode {
    InvalidType = "invalid_type",
    TooSmall = "too_small",
    TooBig = "too_big",
    InvalidFormat = "invalid_format",
    NotMultipleOf = "not_multiple_of",
    UnrecognizedKeys = "unrecognized_keys",
    InvalidUnion = "invalid_union",
    InvalidKey = "invalid_key",
    InvalidElement = "invalid_element",
    InvalidValue = "invalid_value",
    Custom = "custom",
    MissingRequired = "missing_required"
});

/// A bound of `too_small`/`too_big`: a number or a date, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bound {
    /// The number's digits or the date's text, as the validator gave them.
    pub value: String,
    /// Whether the bound itself is allowed (`>=` rather than `>`).
    pub inclusive: bool,
    /// Whether the value must equal the bound (a fixed length).
    pub exact: bool,
}

/// One issue. Values the model sent or may send are kept as JSON text, so
/// big integers, deep nesting and odd values survive exactly.
///
/// ```
/// use mcp_envelope::validation::{IssueCode, PathSegment, ValidationIssue};
/// let issue = ValidationIssue::new(IssueCode::InvalidFormat)
///     .at([PathSegment::Key("id".into())])
///     .format("email")
///     .input_json(r#""not-an-email""#);
/// assert_eq!(issue.field_name(), "id");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationIssue {
    /// Where the field is: keys and array indices from the arguments object.
    pub path: Vec<PathSegment>,
    /// What kind of problem it is; it picks the line's template.
    pub code: IssueCode,
    /// The value sent, as JSON text; `None` means the field was not sent.
    pub input: Option<String>,
    /// The expected type's name (`string`, `number`, `integer`, ...).
    pub expected: Option<String>,
    /// The expected format (`email`, `url`, `uuid`, `datetime`, `regex`, ...).
    pub format: Option<String>,
    /// The pattern of a `regex` format.
    pub pattern: Option<String>,
    /// The allowed values, each as JSON text.
    pub values: Vec<String>,
    /// The lower bound a `too_small` value missed.
    pub minimum: Option<Bound>,
    /// The upper bound a `too_big` value passed.
    pub maximum: Option<Bound>,
    /// What was measured: `string` (length), `number`, `array` (items), `date`, ...
    pub origin: Option<String>,
    /// The names of unrecognized keys.
    pub keys: Vec<String>,
    /// The divisor of `not_multiple_of`, as written.
    pub divisor: Option<String>,
    /// The validator's own words, used only where no template fits (`custom`).
    pub message: Option<String>,
}

impl ValidationIssue {
    /// An issue of this kind, nothing else set: about the whole arguments object until
    /// [`at`](Self::at) names the field.
    pub fn new(code: IssueCode) -> Self {
        ValidationIssue {
            path: Vec::new(),
            code,
            input: None,
            expected: None,
            format: None,
            pattern: None,
            values: Vec::new(),
            minimum: None,
            maximum: None,
            origin: None,
            keys: Vec::new(),
            divisor: None,
            message: None,
        }
    }

    /// Sets where the field is: keys and array indices from the arguments object.
    pub fn at(mut self, path: impl IntoIterator<Item = PathSegment>) -> Self {
        self.path = path.into_iter().collect();
        self
    }

    /// Sets the sent value from its JSON text.
    pub fn input_json(mut self, json: impl Into<String>) -> Self {
        self.input = Some(json.into());
        self
    }

    /// Sets the expected type's name (`string`, `integer`, ...).
    pub fn expected(mut self, type_name: impl Into<String>) -> Self {
        self.expected = Some(type_name.into());
        self
    }

    /// Sets the expected format (`email`, `url`, `regex`, ...).
    pub fn format(mut self, format: impl Into<String>) -> Self {
        self.format = Some(format.into());
        self
    }

    /// Sets the validator's own words, used only where no template fits (`custom`).
    pub fn message(mut self, message: impl Into<String>) -> Self {
        self.message = Some(message.into());
        self
    }

    /// The path as the envelope names the field (see [`crate::validation::field_name`]).
    pub fn field_name(&self) -> String {
        super::path::field_name(&self.path)
    }
}

/// How the `<validation_error>` envelope is rendered: its limits and its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ValidationOptions {
    /// Fields listed before a `<more_fields>` line counts the rest.
    pub max_fields: usize,
    /// Deltas listed in `<contract_awareness>` before a `<more_deltas>` line.
    pub max_deltas: usize,
    /// The catalog of the field lines; English by default.
    pub locale: Locale,
    /// Whether the recovery line follows `locale` too (it stays English otherwise).
    pub localize_steering: bool,
}

impl ValidationOptions {
    /// Fields listed by default before a `<more_fields>` line counts the rest.
    pub const DEFAULT_MAX_FIELDS: usize = 20;
    /// Contract changes listed by default before a `<more_deltas>` line counts the rest.
    pub const DEFAULT_MAX_DELTAS: usize = 5;
}

impl Default for ValidationOptions {
    fn default() -> Self {
        ValidationOptions {
            max_fields: Self::DEFAULT_MAX_FIELDS,
            max_deltas: Self::DEFAULT_MAX_DELTAS,
            locale: Locale::En,
            localize_steering: false,
        }
    }
}
