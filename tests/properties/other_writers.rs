//! Envelopes as other writers write them, in each form: any section order,
//! sections missing or repeated, values of the wrong kind, empty codes,
//! detail keys given twice, text before and after (mentions of the tag
//! included). The readers must refuse what the renderer would, and read
//! only what it would render.

use super::text;
use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;

/// Prose before an envelope: nothing, a transcript's line, or mentions of the tags.
fn preface() -> impl Strategy<Value = String> {
    prop::sample::select(
        &[
            "",
            "The tool said:\n",
            "A <tool_error> follows:\n",
            "Look for `<tool_error>` here.\n",
            "It sent <tool_error code=\"Q\"> back.\n",
            "The <tool_error tag's code names it.\n",
            "Every <validation_error> and <partial_result> is read.\n",
            "error_code: in prose\n",
            "<tool_error",
        ][..],
    )
    .prop_map(str::to_owned)
}

/// A code: usually a plain one, sometimes empty or hostile.
fn code() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(&["NOT_FOUND", "RATE_LIMITED", "X", "billing.card_declined"][..]).prop_map(str::to_owned),
        1 => Just(String::new()),
        1 => text(),
    ]
}

/// A detail key from a few, so that some envelopes give one twice.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![3 => prop::sample::select(&["a", "b", "requestedId"][..]).prop_map(str::to_owned), 1 => text()]
}

fn escape(text: &str, quote: bool) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if quote => out.push_str("&quot;"),
            // A forbidden character as a character reference, as some writers do.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push_str(&format!("&#{};", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// Element content: escaped, or in CDATA where it can be.
fn content() -> impl Strategy<Value = String> {
    (text(), any::<bool>()).prop_map(|(t, cdata)| {
        if cdata && !t.contains("]]>") && !t.chars().any(|c| (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r')) {
            format!("<![CDATA[{t}]]>")
        } else {
            escape(&t, false)
        }
    })
}

fn words() -> impl Strategy<Value = String> {
    prop::sample::select(
        &[
            "true",
            "false",
            "maybe",
            "30 seconds",
            "1 second",
            "soon",
            "business",
            "transient",
            "2",
            "",
        ][..],
    )
    .prop_map(str::to_owned)
}

fn leaf(name: &'static str) -> impl Strategy<Value = String> {
    content().prop_map(move |c| format!("<{name}>{c}</{name}>"))
}

fn xml_section() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => leaf("message"),
        1 => leaf("recovery"),
        1 => leaf("customer_message"),
        1 => leaf("correlation_id"),
        1 => (prop::sample::select(&["retry_after", "category", "retryable"][..]), words())
            .prop_map(|(name, w)| format!("<{name}>{w}</{name}>")),
        1 => (prop::collection::vec(content(), 0..4), prop::option::of(0..3u8)).prop_map(|(actions, more)| {
            let items: String = actions.iter().map(|a| format!("<action>{a}</action>")).collect();
            let more = more.map(|n| format!("<more_actions count=\"{n}\"/>")).unwrap_or_default();
            format!("<available_actions>{items}{more}</available_actions>")
        }),
        2 => prop::collection::vec((key(), content()), 0..4).prop_map(|details| {
            let items: String =
                details.iter().map(|(k, v)| format!("<detail key=\"{}\">{v}</detail>", escape(k, true))).collect();
            format!("<details>{items}</details>")
        }),
        1 => (text(), content()).prop_map(|(field, d)| format!(
            "<contract_awareness><delta severity=\"BREAKING\" field=\"{}\">{d}</delta></contract_awareness>",
            escape(&field, true)
        )),
        1 => Just("<hint>from a newer version</hint>".to_owned()),
        1 => Just("<!-- a proxy was here -->".to_owned()),
    ]
}

/// `<tool_error>` as another XML writer writes it.
fn xml() -> impl Strategy<Value = String> {
    let attributes = (prop::option::of(code()), prop::option::of(words()), any::<bool>());
    let sections = prop::collection::vec(xml_section(), 0..7);
    (
        preface(),
        attributes,
        sections,
        prop::sample::select(&["\n", " ", "", "\n  "][..]),
        text(),
    )
        .prop_map(|(preface, (code, severity, severity_first), sections, gap, after)| {
            let code = code
                .map(|c| format!(" code=\"{}\"", escape(&c, true)))
                .unwrap_or_default();
            let severity = severity.map(|s| format!(" severity=\"{s}\"")).unwrap_or_default();
            let attributes = if severity_first {
                severity + &code
            } else {
                code + &severity
            };
            let body = sections.join(gap);
            format!("{preface}<tool_error{attributes}>{gap}{body}{gap}</tool_error>{after}")
        })
}

fn json_string(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

/// A JSON value of the kind a member wants, or of another kind.
fn json_member() -> impl Strategy<Value = (String, String)> {
    let string = |key: &'static str| text().prop_map(move |t| (key.to_owned(), json_string(&t)));
    prop_oneof![
        2 => code().prop_map(|c| ("code".to_owned(), json_string(&c))),
        2 => string("reason"),
        1 => string("recovery"),
        1 => string("customerMessage"),
        1 => string("correlationId"),
        1 => prop::sample::select(&["\"error\"", "\"warning\"", "\"fatal\"", "3"][..])
            .prop_map(|v| ("severity".to_owned(), v.to_owned())),
        1 => prop::sample::select(&["\"business\"", "\"transient\"", "\"other\"", "null"][..])
            .prop_map(|v| ("errorCategory".to_owned(), v.to_owned())),
        1 => prop::sample::select(&["true", "false", "\"no\""][..]).prop_map(|v| ("isRetryable".to_owned(), v.to_owned())),
        1 => prop::sample::select(&["30", "0", "1.5", "-1", "4294967296"][..])
            .prop_map(|v| ("retryAfter".to_owned(), v.to_owned())),
        1 => (prop::sample::select(&["omittedActions", "omittedDetails", "omittedDeltas"][..]), 0..4u8)
            .prop_map(|(k, n)| (k.to_owned(), n.to_string())),
        1 => prop::collection::vec(text(), 0..4).prop_map(|a| ("availableActions".to_owned(), serde_json::to_string(&a).unwrap())),
        // Written by hand: a JSON writer would not repeat a key.
        2 => prop::collection::vec((key(), text()), 0..4).prop_map(|details| {
            let members: Vec<String> =
                details.iter().map(|(k, v)| format!("{}:{}", json_string(k), json_string(v))).collect();
            ("details".to_owned(), format!("{{{}}}", members.join(",")))
        }),
        1 => Just(("version".to_owned(), "2".to_owned())),
    ]
}

/// The JSON form as another writer writes it: members in any order.
fn json() -> impl Strategy<Value = String> {
    (prop::collection::vec(json_member(), 0..9), any::<bool>(), text()).prop_map(|(members, whole, after)| {
        let mut members = members;
        if whole {
            members.push(("code".to_owned(), "\"X\"".to_owned()));
            members.push(("reason".to_owned(), "\"m\"".to_owned()));
        }
        let body: Vec<String> = members.iter().map(|(k, v)| format!("{}:{v}", json_string(k))).collect();
        format!("{{{}}}{after}", body.join(","))
    })
}

/// A `key: value` line, a value's newlines continued two spaces in.
fn text_line() -> impl Strategy<Value = String> {
    let value = prop_oneof![
        3 => text(),
        1 => words(),
        1 => prop::collection::vec(text(), 0..3).prop_map(|a| serde_json::to_string(&a).unwrap()),
        1 => prop::collection::vec((key(), text()), 0..4).prop_map(|details| {
            let members: Vec<String> =
                details.iter().map(|(k, v)| format!("{}:{}", json_string(k), json_string(v))).collect();
            format!("{{{}}}", members.join(","))
        }),
    ];
    let keys = &[
        "error_code",
        "what_failed",
        "what_failed",
        "next_action",
        "retryable",
        "severity",
        "category",
        "available_actions",
        "details",
        "details",
        "retry_after",
        "omitted_actions",
        "customer_message",
        "correlation_id",
        "later_key",
    ][..];
    (prop::sample::select(keys), value).prop_map(|(key, value)| format!("{key}: {}", value.replace('\n', "\n  ")))
}

/// The text form as another writer writes it: `error_code:` first, then lines in any order.
fn text_form() -> impl Strategy<Value = String> {
    (preface(), code(), prop::collection::vec(text_line(), 0..8), text()).prop_map(|(preface, code, lines, after)| {
        let preface = if preface.is_empty() || preface.ends_with('\n') {
            preface
        } else {
            preface + "\n"
        };
        format!(
            "{preface}error_code: {}\n{}\n{after}",
            code.replace('\n', "\n  "),
            lines.join("\n")
        )
    })
}

/// One strategy per form, named by it.
pub fn envelopes() -> Vec<(&'static str, BoxedStrategy<String>)> {
    vec![
        ("other writers' xml", xml().boxed()),
        ("other writers' json", json().boxed()),
        ("other writers' text", text_form().boxed()),
    ]
}
