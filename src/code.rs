//! The canonical error codes and what each implies when the caller does not say.
//!
//! Codes are closed-then-open: these 17 are known (and have defaults), any
//! other non-empty string is a custom code with no defaults. Each default
//! recovery hint comes in every catalog (`en`, `pt-BR`); `defaults` gives the
//! English one, `default_recovery` the one of a locale.

use crate::error::SpecError;
use crate::json::{fail, read_input};
use crate::locale::Locale;

/// Which recovery branch a failure is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Category {
    /// Timeout, rate limit, a dependency briefly down: wait and retry.
    Transient,
    /// The arguments were wrong: fix them and call again.
    Validation,
    /// A rule forbids it: explain or escalate, do not retry.
    Business,
    /// The caller may not do this: stop, do not probe.
    Permission,
    /// The server failed: do not retry blindly.
    Internal,
}

string_enum!(Category {
    Transient = "transient",
    Validation = "validation",
    Business = "business",
    Permission = "permission",
    Internal = "internal"
});

/// What a canonical code implies: its category, whether another call can
/// succeed, and the recovery hint rendered when the caller gives none (in
/// English here: the `code-defaults` export's shape; see [`default_recovery`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct CodeDefaults {
    /// The recovery branch the code implies when the caller sets no category.
    pub category: Category,
    /// Whether another call can succeed when the caller does not say.
    pub retryable: bool,
    /// The English recovery hint rendered when the caller gives no suggestion.
    pub recovery: &'static str,
}

impl CodeDefaults {
    /// `{"category","retryable","recovery"}`, as the component gives it.
    pub fn to_json(&self) -> String {
        crate::json::to_json(self)
    }
}

/// `{"code", "locale"?}` in; the code's defaults as `code-defaults` gives
/// them, with the recovery hint in that locale, out; `null` for a custom code.
///
/// ```
/// use mcp_envelope::code::code_defaults_json;
/// assert_eq!(
///     code_defaults_json(r#"{"code":"CONFLICT","locale":"pt-BR"}"#).unwrap(),
///     r#"{"category":"business","retryable":false,"recovery":"Leia o estado atual de novo e decida se a alteração ainda se aplica."}"#
/// );
/// assert_eq!(code_defaults_json(r#"{"code":"ORDER_NOT_FOUND"}"#).unwrap(), "null");
/// ```
pub fn code_defaults_json(input: &str) -> Result<String, SpecError> {
    /// The `code-defaults` request as written.
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields, expecting = "a request object")]
    struct Request {
        #[serde(default, deserialize_with = "crate::json::given")]
        code: Option<String>,
        locale: Option<Locale>,
    }
    let request: Request = read_input(input, "the request")?;
    let (code, locale) = (request.code, request.locale.unwrap_or(Locale::En));
    let code = match code {
        Some(code) if code.is_empty() => return fail("\"code\" must not be empty"),
        Some(code) => code,
        None => return fail("missing \"code\": name the code whose defaults you want"),
    };
    Ok(match (defaults(&code), default_recovery(&code, locale)) {
        (Some(d), Some(recovery)) => CodeDefaults { recovery, ..d }.to_json(),
        _ => "null".to_owned(),
    })
}

macro_rules! canonical_codes {
    ($($name:ident => $category:ident, $retryable:expr, $recovery:expr, $pt_br:expr;)*) => {
        $(
            #[doc = concat!("The canonical code `", stringify!($name), "`.")]
            pub const $name: &str = stringify!($name);
        )*

        /// The canonical codes, in the order the envelope specification lists them.
        pub const CANONICAL_CODES: &[&str] = &[$($name),*];

        /// The defaults of a canonical code, or `None` for a custom code.
        ///
        /// ```
        /// use mcp_envelope::{code, Category};
        /// let d = code::defaults(code::RATE_LIMITED).unwrap();
        /// assert_eq!((d.category, d.retryable), (Category::Transient, true));
        /// assert!(code::defaults("ORDER_NOT_FOUND").is_none());
        /// ```
        pub fn defaults(code: &str) -> Option<CodeDefaults> {
            match code {
                $($name => Some(CodeDefaults {
                    category: Category::$category,
                    retryable: $retryable,
                    recovery: $recovery,
                }),)*
                _ => None,
            }
        }

        /// The recovery hint a canonical code renders when the caller gives
        /// none, in the locale's words; `None` for a custom code.
        ///
        /// ```
        /// use mcp_envelope::{code, Locale};
        /// assert_eq!(
        ///     code::default_recovery(code::UNKNOWN_ACTION, Locale::PtBr),
        ///     Some("Chame a tool de novo com uma das ações disponíveis.")
        /// );
        /// assert_eq!(code::default_recovery("ORDER_NOT_FOUND", Locale::PtBr), None);
        /// ```
        pub fn default_recovery(code: &str, locale: Locale) -> Option<&'static str> {
            match (code, locale) {
                $(($name, Locale::En) => Some($recovery),)*
                $(($name, Locale::PtBr) => Some($pt_br),)*
                _ => None,
            }
        }
    };
}

// Keep this table in step with docs/envelope.md's "Per-code defaults" table and
// docs/locales.md's catalog. Each row: category, retryable, the English hint,
// the pt-BR hint (same meaning and directness: these steer the model).
canonical_codes! {
    MISSING_DISCRIMINATOR => Validation, true,
        "Add the action argument naming one of the available actions, then call the tool again.",
        "Adicione o argumento action com o nome de uma das ações disponíveis e chame a tool de novo.";
    UNKNOWN_ACTION => Validation, true,
        "Call the tool again with one of the available actions.",
        "Chame a tool de novo com uma das ações disponíveis.";
    VALIDATION_ERROR => Validation, true,
        "Fix the arguments named above and call the tool again.",
        "Corrija os argumentos indicados acima e chame a tool de novo.";
    MISSING_REQUIRED_FIELD => Validation, true,
        "Add the missing field and call the tool again.",
        "Adicione o campo que falta e chame a tool de novo.";
    INTERNAL_ERROR => Internal, false,
        "Do not retry blindly: the same call is likely to fail again. Tell the user the tool failed, quoting the correlation id if there is one.",
        "Não tente de novo às cegas: a mesma chamada provavelmente vai falhar outra vez. Diga ao usuário que a tool falhou e informe o correlation id, se houver um.";
    RATE_LIMITED => Transient, true,
        "Wait for the retry-after period, then make the same call again.",
        "Aguarde o período de retry-after e faça a mesma chamada de novo.";
    UNAUTHORIZED => Permission, false,
        "Do not retry. The credentials were rejected; ask the user to sign in again.",
        "Não tente de novo. As credenciais foram rejeitadas; peça ao usuário que faça login de novo.";
    FORBIDDEN => Permission, false,
        "Do not retry or probe. Tell the user this needs access they do not have.",
        "Não tente de novo nem procure outro caminho. Diga ao usuário que isto exige um acesso que ele não tem.";
    NOT_FOUND => Business, false,
        "Check the identifier: look the item up or list the available ones, then call again with a real one.",
        "Confira o identificador: consulte o item ou liste os disponíveis e chame de novo com um que exista.";
    CONFLICT => Business, false,
        "Read the current state again, then decide whether the change still applies.",
        "Leia o estado atual de novo e decida se a alteração ainda se aplica.";
    TIMEOUT => Transient, true,
        "Retry once after a short wait; if it times out again, tell the user the service is slow.",
        "Tente de novo uma vez após uma breve espera; se o tempo esgotar outra vez, diga ao usuário que o serviço está lento.";
    SERVER_BUSY => Transient, true,
        "The server is shedding load: wait, then make the same call again.",
        "O servidor está sobrecarregado e recusando chamadas: aguarde e faça a mesma chamada de novo.";
    DEPRECATED => Validation, true,
        "Use the replacement named in the message and call again.",
        "Use o substituto indicado na mensagem e chame de novo.";
    AUTH_REQUIRED => Permission, false,
        "Ask the user to authenticate, then call again. Never pass credentials as tool arguments.",
        "Peça ao usuário que se autentique e chame de novo. Nunca passe credenciais como argumentos da tool.";
    HANDOFF_UPSTREAM_UNAVAILABLE => Transient, true,
        "The upstream server is unavailable: wait, then make the same call again.",
        "O servidor upstream está indisponível: aguarde e faça a mesma chamada de novo.";
    HANDOFF_NAMESPACE_MISMATCH => Validation, true,
        "Call the tool under the namespace named in the message.",
        "Chame a tool no namespace indicado na mensagem.";
    HANDOFF_CONNECTING => Transient, true,
        "The upstream connection is still being set up: wait a moment, then make the same call again.",
        "A conexão com o upstream ainda está sendo estabelecida: aguarde um momento e faça a mesma chamada de novo.";
}
