//! The words of the `<field>` lines, one catalog per locale: `field_text`
//! decides which phrase an issue gets, a catalog says it. Phrases that take
//! values are functions, so each language orders and inflects them itself
//! (Portuguese contracts "de o" to "do", English puts the article first).
//!
//! The English catalog is the wire format the vectors pin byte for byte;
//! the pt-BR one follows the terms of the pt-BR edition of the seed
//! ("tool", "ação", "campo") and says the same thing as directly.

use crate::locale::Locale;

/// One language's words for the field lines.
pub(crate) struct FieldWords {
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
pub(crate) struct TypeWords {
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
pub(crate) struct SizeWords {
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

/// The catalog of a locale.
pub(crate) fn field_words(locale: Locale) -> &'static FieldWords {
    match locale {
        Locale::En => &EN,
        Locale::PtBr => &PT_BR,
    }
}

const EN: FieldWords = FieldWords {
    line: |wrong, sent, expected| format!("{wrong}. You sent: {sent}. Expected {expected}."),
    nothing: "nothing",
    characters: |n| format!("{n} {}", if n == 1 { "character" } else { "characters" }),
    empty_array: "an empty array",
    array_of: |n| format!("an array of {n} {}", if n == 1 { "item" } else { "items" }),
    empty_object: "an empty object",
    object_with_keys: |n, keys, more| {
        let noun = if n == 1 { "key" } else { "keys" };
        match more {
            0 => format!("an object with {noun} {keys}"),
            more => format!("an object with {noun} {keys} and {more} more"),
        }
    },
    and_more: |n| format!(", and {n} more"),

    missing_required: "Missing required field",
    a_value: "a value",
    wrong_type: "Wrong type",
    types: TypeWords {
        string: "a string",
        number: "a number",
        integer: "an integer",
        boolean: "a boolean (true or false)",
        object: "an object",
        array: "an array",
        null: "null",
        date: "a date",
        other: "a value of another type",
    },
    a_value_of_type: |name| format!("a value of type {name}"),

    not_multiple_of: |d| format!("Not a multiple of {d}"),
    a_multiple_of: |d| format!("a multiple of {d}"),
    not_multiple_of_step: "Not a multiple of the required step",
    a_multiple_of_step: "a multiple of the required step",

    invalid_union: (
        "Matches none of the allowed shapes",
        "a value matching one of the allowed shapes",
    ),
    invalid_key: ("Invalid key", "keys of the allowed form"),
    invalid_element: ("Invalid element", "elements of the allowed form"),
    failed_check: "Failed a check",
    passing_value: "a value that passes this check",
    duplicate_items: "Has duplicate items",

    invalid_format: |name| format!("Invalid {name} format"),
    formats: EN_FORMATS,
    a_valid: |name| format!("a valid {name}"),
    pattern_mismatch: "Does not match the required pattern",
    matching_pattern: |p| format!("text matching the pattern {p}"),
    matching_field_pattern: "text matching the field's pattern",
    no_format: ("Invalid format", "a value in the field's format"),

    not_allowed_value: ("Not an allowed value", "one of the allowed values"),
    not_the_allowed_value: "Not the allowed value",
    not_one_of_allowed: "Not one of the allowed values",
    one_of: |values| format!("one of: {values}"),
    exactly: |value| format!("exactly {value}"),

    unknown_keys_unnamed:
        "Unrecognized keys. You sent: keys this object does not have. Expected only the declared keys.",
    unknown_key: |k| format!("Unrecognized key {k}. You sent: {k}. Expected only the declared keys; remove it."),
    unknown_keys: |k| format!("Unrecognized keys {k}. You sent: {k}. Expected only the declared keys; remove them."),

    size: SizeWords {
        too_short: "Too short",
        too_long: "Too long",
        too_few_items: "Too few items",
        too_many_items: "Too many items",
        too_few_entries: "Too few entries",
        too_many_entries: "Too many entries",
        too_small: "Too small",
        too_large: "Too large",
        too_early: "Too early",
        too_late: "Too late",
        character: ("character", "characters"),
        item: ("item", "items"),
        entry: ("entry", "entries"),
        byte: ("byte", "bytes"),
        in_range: "a value within the allowed range",
        on_or_after: |v| format!("a date on or after {v}"),
        after: |v| format!("a date after {v}"),
        on_or_before: |v| format!("a date on or before {v}"),
        before: |v| format!("a date before {v}"),
        at_least: |q| format!("at least {q}"),
        more_than: |q| format!("more than {q}"),
        at_most: |q| format!("at most {q}"),
        fewer_than: |q| format!("fewer than {q}"),
        greater_than: |v| format!("a value greater than {v}"),
        less_than: |v| format!("a value less than {v}"),
    },
};

const PT_BR: FieldWords = FieldWords {
    line: |wrong, sent, expected| format!("{wrong}. Você enviou: {sent}. Esperado: {expected}."),
    nothing: "nada",
    characters: |n| format!("{n} {}", if n == 1 { "caractere" } else { "caracteres" }),
    empty_array: "um array vazio",
    array_of: |n| format!("um array de {n} {}", if n == 1 { "item" } else { "itens" }),
    empty_object: "um objeto vazio",
    object_with_keys: |n, keys, more| {
        let noun = if n == 1 { "a chave" } else { "as chaves" };
        match more {
            0 => format!("um objeto com {noun} {keys}"),
            more => format!("um objeto com {noun} {keys} e mais {more}"),
        }
    },
    and_more: |n| format!(" e mais {n}"),

    missing_required: "Campo obrigatório ausente",
    a_value: "um valor",
    wrong_type: "Tipo incorreto",
    types: TypeWords {
        string: "uma string",
        number: "um número",
        integer: "um inteiro",
        boolean: "um booleano (true ou false)",
        object: "um objeto",
        array: "um array",
        null: "null",
        date: "uma data",
        other: "um valor de outro tipo",
    },
    a_value_of_type: |name| format!("um valor do tipo {name}"),

    not_multiple_of: |d| format!("Não é múltiplo de {d}"),
    a_multiple_of: |d| format!("um múltiplo de {d}"),
    not_multiple_of_step: "Não é múltiplo do passo exigido",
    a_multiple_of_step: "um múltiplo do passo exigido",

    invalid_union: (
        "Não corresponde a nenhuma das formas permitidas",
        "um valor que corresponda a uma das formas permitidas",
    ),
    invalid_key: ("Chave inválida", "chaves na forma permitida"),
    invalid_element: ("Elemento inválido", "elementos na forma permitida"),
    failed_check: "Não passou em uma verificação",
    passing_value: "um valor que passe nesta verificação",
    duplicate_items: "Tem itens repetidos",

    invalid_format: |name| format!("Formato de {name} inválido"),
    formats: PT_BR_FORMATS,
    a_valid: |name| format!("um valor válido no formato {name}"),
    pattern_mismatch: "Não corresponde ao padrão exigido",
    matching_pattern: |p| format!("texto que corresponda ao padrão {p}"),
    matching_field_pattern: "texto que corresponda ao padrão do campo",
    no_format: ("Formato inválido", "um valor no formato do campo"),

    not_allowed_value: ("Valor não permitido", "um dos valores permitidos"),
    not_the_allowed_value: "Não é o valor permitido",
    not_one_of_allowed: "Não é um dos valores permitidos",
    one_of: |values| format!("um destes: {values}"),
    exactly: |value| format!("exatamente {value}"),

    unknown_keys_unnamed:
        "Chaves não reconhecidas. Você enviou: chaves que este objeto não tem. Esperado: apenas as chaves declaradas.",
    unknown_key: |k| {
        format!("Chave não reconhecida {k}. Você enviou: {k}. Esperado: apenas as chaves declaradas; remova-a.")
    },
    unknown_keys: |k| {
        format!("Chaves não reconhecidas {k}. Você enviou: {k}. Esperado: apenas as chaves declaradas; remova-as.")
    },

    size: SizeWords {
        too_short: "Curto demais",
        too_long: "Longo demais",
        too_few_items: "Itens de menos",
        too_many_items: "Itens demais",
        too_few_entries: "Entradas de menos",
        too_many_entries: "Entradas demais",
        too_small: "Pequeno demais",
        too_large: "Grande demais",
        too_early: "Cedo demais",
        too_late: "Tarde demais",
        character: ("caractere", "caracteres"),
        item: ("item", "itens"),
        entry: ("entrada", "entradas"),
        byte: ("byte", "bytes"),
        in_range: "um valor dentro do intervalo permitido",
        on_or_after: |v| format!("uma data a partir de {v}"),
        after: |v| format!("uma data posterior a {v}"),
        on_or_before: |v| format!("uma data até {v}"),
        before: |v| format!("uma data anterior a {v}"),
        at_least: |q| format!("pelo menos {q}"),
        more_than: |q| format!("mais de {q}"),
        at_most: |q| format!("no máximo {q}"),
        fewer_than: |q| format!("menos de {q}"),
        greater_than: |v| format!("um valor maior que {v}"),
        less_than: |v| format!("um valor menor que {v}"),
    },
};

/// The English names of the formats and what a valid value of each looks like.
#[rustfmt::skip]
const EN_FORMATS: &[(&[&str], &str, &str)] = &[
    (&["email"], "email", "a valid email address"),
    (&["url", "uri"], "URL", "a valid URL, such as https://example.com/page"),
    (&["uuid", "guid"], "UUID", "a UUID, such as 123e4567-e89b-12d3-a456-426614174000"),
    (&["datetime", "date-time"], "date-time", "an ISO 8601 date-time, such as 2026-01-31T09:30:00Z"),
    (&["date"], "date", "an ISO 8601 date, such as 2026-01-31"),
    (&["time"], "time", "an ISO 8601 time, such as 09:30:00"),
    (&["duration"], "duration", "an ISO 8601 duration, such as P3DT4H"),
    (&["ipv4"], "IPv4", "an IPv4 address, such as 192.0.2.1"),
    (&["ipv6"], "IPv6", "an IPv6 address, such as 2001:db8::1"),
    (&["cidrv4"], "IPv4 range", "an IPv4 range in CIDR form, such as 192.0.2.0/24"),
    (&["cidrv6"], "IPv6 range", "an IPv6 range in CIDR form, such as 2001:db8::/32"),
    (&["e164"], "phone number", "a phone number in E.164 form, such as +14155550123"),
    (&["base64"], "base64", "base64-encoded text"),
    (&["base64url"], "base64url", "base64url-encoded text"),
    (&["jwt"], "JWT", "a JSON Web Token"),
    (&["hostname"], "hostname", "a hostname, such as api.example.com"),
];

/// The pt-BR names of the formats and what a valid value of each looks like.
#[rustfmt::skip]
const PT_BR_FORMATS: &[(&[&str], &str, &str)] = &[
    (&["email"], "email", "um endereço de email válido"),
    (&["url", "uri"], "URL", "uma URL válida, como https://example.com/page"),
    (&["uuid", "guid"], "UUID", "um UUID, como 123e4567-e89b-12d3-a456-426614174000"),
    (&["datetime", "date-time"], "data e hora", "uma data e hora ISO 8601, como 2026-01-31T09:30:00Z"),
    (&["date"], "data", "uma data ISO 8601, como 2026-01-31"),
    (&["time"], "hora", "uma hora ISO 8601, como 09:30:00"),
    (&["duration"], "duração", "uma duração ISO 8601, como P3DT4H"),
    (&["ipv4"], "IPv4", "um endereço IPv4, como 192.0.2.1"),
    (&["ipv6"], "IPv6", "um endereço IPv6, como 2001:db8::1"),
    (&["cidrv4"], "faixa IPv4", "uma faixa IPv4 em notação CIDR, como 192.0.2.0/24"),
    (&["cidrv6"], "faixa IPv6", "uma faixa IPv6 em notação CIDR, como 2001:db8::/32"),
    (&["e164"], "telefone", "um número de telefone no formato E.164, como +14155550123"),
    (&["base64"], "base64", "texto codificado em base64"),
    (&["base64url"], "base64url", "texto codificado em base64url"),
    (&["jwt"], "JWT", "um JSON Web Token"),
    (&["hostname"], "nome de host", "um nome de host, como api.example.com"),
];
