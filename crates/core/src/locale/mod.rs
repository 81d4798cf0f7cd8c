//! The languages the core writes words in, `en` (the default) and `pt-BR`,
//! and one catalog of every such word per locale: `en.rs` and `pt_br.rs`.
//!
//! Why one `Words` value per locale: a phrase added to `Words` and left out
//! of a catalog is a compile error, a translator reads one file, and every
//! module asks `locale.words()` instead of matching on the locale itself.
//! Phrases that take values are functions, so each language orders and
//! inflects them itself (Portuguese contracts "de o" to "do", English puts
//! the article first) and `format!` checks every value's name.
//!
//! A locale chooses the default recovery hints, the validation field lines
//! and the customer messages the helpers write. Lines whose exact English
//! wording steers the model (`Words::steering`: the validation recovery line,
//! the repeat and stop lines, the empty-result text, the cut markers) stay
//! English unless a spec asks for them in its locale (`localizeSteering`),
//! which `Locale::steering` decides. Words that never change with the
//! locale (the envelope format, messages for the host and the logs) stay in
//! the module that writes them.

mod en;
mod pt_br;

/// A catalog's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Locale {
    /// English (`en`), the default.
    #[default]
    En,
    /// Brazilian Portuguese (`pt-BR`); the lines that steer the model follow it only with `localize_steering`.
    PtBr,
}

string_enum!(Locale { En = "en", PtBr = "pt-BR" });

impl Locale {
    /// The locale's catalog.
    pub const fn words(self) -> &'static Words {
        match self {
            Locale::En => &en::WORDS,
            Locale::PtBr => &pt_br::WORDS,
        }
    }

    /// The locale of the lines that steer the model: English unless the
    /// caller asks for this locale there too (`localize_steering`).
    pub fn steering(self, localize_steering: bool) -> Locale {
        if localize_steering {
            self
        } else {
            Locale::En
        }
    }
}

/// Every word the core writes in one locale.
pub struct Words {
    /// The default recovery hints of the canonical codes. They stand in for a
    /// suggestion the caller did not write, so they follow the locale alone.
    pub recovery: CodeRecovery,
    /// The `<field>` lines of a `<validation_error>`.
    pub field: FieldWords,
    /// The customer messages the recovery helpers write.
    pub customer: CustomerWords,
    /// The lines that steer the model, used in this locale only with `localize_steering`.
    pub steering: SteeringWords,
}

/// The default recovery hint of each canonical code, named after the code.
/// Each says the same thing as directly in every locale: these steer the model.
// Each field is a phrase named after where it is used; the other crates read them.
#[allow(missing_docs)]
pub struct CodeRecovery {
    pub missing_discriminator: &'static str,
    pub unknown_action: &'static str,
    pub validation_error: &'static str,
    pub missing_required_field: &'static str,
    pub internal_error: &'static str,
    pub rate_limited: &'static str,
    pub unauthorized: &'static str,
    pub forbidden: &'static str,
    pub not_found: &'static str,
    pub conflict: &'static str,
    pub timeout: &'static str,
    pub server_busy: &'static str,
    pub deprecated: &'static str,
    pub auth_required: &'static str,
    pub handoff_upstream_unavailable: &'static str,
    pub handoff_namespace_mismatch: &'static str,
    pub handoff_connecting: &'static str,
}

/// What the recovery helpers tell the user, in `customerMessage`.
// Each field is a phrase named after where it is used; the other crates read them.
#[allow(missing_docs)]
pub struct CustomerWords {
    /// The user must sign in (access errors, an upstream 401).
    pub sign_in: &'static str,
    /// Access denied, saying nothing about the object (access errors, an upstream 403).
    pub forbidden: &'static str,
    /// An exception in the tool, with no id to quote.
    pub failed: &'static str,
    /// An exception in the tool, quoting the id support finds the log line by.
    pub failed_under_id: fn(&str) -> String,
    /// The upstream answers per status: 429, 404, 408 and 504, 409, 5xx, any other.
    pub rate_limited: &'static str,
    pub not_found: &'static str,
    pub timeout: &'static str,
    pub conflict: &'static str,
    pub unavailable: &'static str,
    pub rejected: &'static str,
    /// The upstream wants scopes the request was not granted.
    pub step_up: &'static str,
}

/// The lines whose exact wording steers the model.
// Each field is a phrase named after where it is used; the other crates read them.
#[allow(missing_docs)]
pub struct SteeringWords {
    /// The last line of every validation envelope: "Do not explain the error"
    /// is what keeps a model from apologising instead of calling again.
    pub validation_recovery: &'static str,
    /// What follows the count in a cut marker (`… [N characters cut]`); ASCII.
    pub cut: &'static str,
    /// The repeat ledger's message for the same failure N times in a row.
    pub repeat: fn(u32) -> String,
    /// The ledger's message past its limit (N failures in a row), and what
    /// the model does instead.
    pub stop: fn(u32) -> String,
    pub stop_recovery: &'static str,
    /// An empty result's text: what was searched for, then the query with its
    /// preposition (empty, or starting with a space).
    pub nothing_found: fn(&str, &str) -> String,
    /// What introduces an empty result's next step, on a line of its own.
    pub next_step: &'static str,
}

/// One language's words for the field lines.
// Each field is a phrase named after where it is used; the other crates read them.
#[allow(missing_docs)]
pub struct FieldWords {
    /// `{wrong}. You sent: {sent}. Expected {expected}.`
    pub line: fn(&str, &str, &str) -> String,
    /// What was sent when nothing was.
    pub nothing: &'static str,
    /// `N characters`, the length of a sent string or of a cut text.
    pub characters: fn(usize) -> String,
    pub empty_array: &'static str,
    /// An array of N items.
    pub array_of: fn(usize) -> String,
    pub empty_object: &'static str,
    /// An object with the keys listed (already quoted) and how many more it has.
    pub object_with_keys: fn(usize, &str, usize) -> String,
    /// What closes a cut list of values or keys: `, and N more`.
    pub and_more: fn(usize) -> String,

    pub missing_required: &'static str,
    pub a_value: &'static str,
    pub wrong_type: &'static str,
    pub types: TypeWords,
    /// A type the templates do not know, its name quoted.
    pub a_value_of_type: fn(&str) -> String,

    pub not_multiple_of: fn(&str) -> String,
    pub a_multiple_of: fn(&str) -> String,
    /// The two phrases when the issue does not give the divisor.
    pub not_multiple_of_step: &'static str,
    pub a_multiple_of_step: &'static str,

    pub invalid_union: (&'static str, &'static str),
    pub invalid_key: (&'static str, &'static str),
    pub invalid_element: (&'static str, &'static str),
    /// A `custom` issue without the validator's own words.
    pub failed_check: &'static str,
    pub passing_value: &'static str,
    /// `uniqueItems` of JSON Schema, which Zod has no issue code for.
    pub duplicate_items: &'static str,

    /// `Invalid {name} format`, the name from `formats` or quoted.
    pub invalid_format: fn(&str) -> String,
    /// `(format names, name, what a valid value looks like)`.
    pub formats: &'static [(&'static [&'static str], &'static str, &'static str)],
    /// What a valid value of an unknown format looks like, its name quoted.
    pub a_valid: fn(&str) -> String,
    pub pattern_mismatch: &'static str,
    /// Text matching the pattern, quoted.
    pub matching_pattern: fn(&str) -> String,
    pub matching_field_pattern: &'static str,
    pub no_format: (&'static str, &'static str),

    pub not_allowed_value: (&'static str, &'static str),
    pub not_the_allowed_value: &'static str,
    pub not_one_of_allowed: &'static str,
    /// `one of: {values}`, the values already listed.
    pub one_of: fn(&str) -> String,
    /// `exactly {value}`, also a fixed size.
    pub exactly: fn(&str) -> String,

    /// The whole line for `unrecognized_keys` with no key names.
    pub unknown_keys_unnamed: &'static str,
    /// The whole line for one unrecognized key, then for several (listed, quoted).
    pub unknown_key: fn(&str) -> String,
    pub unknown_keys: fn(&str) -> String,

    pub size: SizeWords,
}

/// Type names with their article: `a string`, `an integer`.
// Each field is a phrase named after where it is used; the other crates read them.
#[allow(missing_docs)]
pub struct TypeWords {
    pub string: &'static str,
    pub number: &'static str,
    pub integer: &'static str,
    pub boolean: &'static str,
    pub object: &'static str,
    pub array: &'static str,
    pub null: &'static str,
    pub date: &'static str,
    /// No type name given.
    pub other: &'static str,
}

/// `too_small` and `too_big`: what is wrong, by what was measured, and the bound.
// Each field is a phrase named after where it is used; the other crates read them.
#[allow(missing_docs)]
pub struct SizeWords {
    pub too_short: &'static str,
    pub too_long: &'static str,
    pub too_few_items: &'static str,
    pub too_many_items: &'static str,
    pub too_few_entries: &'static str,
    pub too_many_entries: &'static str,
    pub too_small: &'static str,
    pub too_large: &'static str,
    pub too_early: &'static str,
    pub too_late: &'static str,
    /// `(one, many)` of each unit.
    pub character: (&'static str, &'static str),
    pub item: (&'static str, &'static str),
    pub entry: (&'static str, &'static str),
    pub byte: (&'static str, &'static str),
    /// No bound given.
    pub in_range: &'static str,
    pub on_or_after: fn(&str) -> String,
    pub after: fn(&str) -> String,
    pub on_or_before: fn(&str) -> String,
    pub before: fn(&str) -> String,
    /// A quantity with its unit.
    pub at_least: fn(&str) -> String,
    pub more_than: fn(&str) -> String,
    pub at_most: fn(&str) -> String,
    pub fewer_than: fn(&str) -> String,
    /// A bare number.
    pub greater_than: fn(&str) -> String,
    pub less_than: fn(&str) -> String,
}
