//! The languages the words for people come in: `en` (the default) and `pt-BR`.
//!
//! A locale chooses the catalog for default recovery hints, validation field
//! templates and the customer messages the helpers write. Lines whose exact
//! English wording steers the model (the validation recovery line, the
//! repeat and stop lines, the cut markers) stay English unless a spec asks
//! for them in its locale (`localizeSteering`).

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
