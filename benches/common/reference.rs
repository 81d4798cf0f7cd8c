//! Hand-written Rust for the benchmark inputs (`benches/inputs.json`): what a
//! server author might write instead of using the core, producing the same
//! bytes for these inputs only. The benchmarks check that before timing, and
//! time the core against it.

/// Escapes element content as the envelope does (`&` and `<`).
fn escape(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            c => out.push(c),
        }
    }
}

fn element(out: &mut String, indent: &str, name: &str, text: &str) {
    out.push('\n');
    out.push_str(indent);
    out.push('<');
    out.push_str(name);
    out.push('>');
    escape(out, text);
    out.push_str("</");
    out.push_str(name);
    out.push('>');
}

/// The seed's NOT_FOUND envelope.
pub fn render_seed() -> String {
    let mut out = String::with_capacity(400);
    out.push_str("<tool_error code=\"NOT_FOUND\" severity=\"error\">");
    element(&mut out, "  ", "message", "No invoice with that ID");
    element(
        &mut out,
        "  ",
        "recovery",
        "List invoices first, then retry with a real ID",
    );
    out.push_str("\n  <available_actions>");
    element(&mut out, "    ", "action", "billing.list_invoices");
    out.push_str("\n  </available_actions>\n  <details>\n    <detail key=\"requestedId\">");
    escape(&mut out, "inv_2026_9999");
    out.push_str("</detail>\n  </details>");
    element(&mut out, "  ", "retry_after", &format!("{} seconds", 30));
    out.push_str("\n</tool_error>");
    out
}

/// The 20-field `<validation_error>`: an invalid email at `items[i].email`.
pub fn render_validation_20() -> String {
    let mut out = String::with_capacity(3000);
    out.push_str("<validation_error action=\"orders.bulk_create\">");
    for i in 0..20 {
        out.push_str(&format!(
            "\n  <field name=\"items[{i}].email\">Invalid email format. You sent: '"
        ));
        escape(&mut out, &format!("user{i}-at-example.com"));
        out.push_str("'. Expected a valid email address.</field>");
    }
    element(
        &mut out,
        "  ",
        "recovery",
        "Fix the fields above and call the tool again. Do not explain the error.",
    );
    out.push_str("\n</validation_error>");
    out
}

/// The text between `<{name}>` and `</{name}>`, unescaped.
fn section<'a>(text: &'a str, name: &str) -> &'a str {
    let open = format!("<{name}>");
    let start = text.find(&open).map(|at| at + open.len()).unwrap_or(0);
    let end = text[start..].find("</").map(|at| start + at).unwrap_or(start);
    &text[start..end]
}

fn json_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The reading of the seed's envelope, as `read-envelope` gives it.
pub fn read_seed(text: &str) -> String {
    let message = section(text, "message");
    let recovery = section(text, "recovery");
    let action = section(text, "action");
    let detail_at = text.find("<detail key=\"").unwrap_or(0) + "<detail key=\"".len();
    let key = &text[detail_at..detail_at + text[detail_at..].find('"').unwrap_or(0)];
    let value_at = detail_at + key.len() + 2;
    let value = &text[value_at..value_at + text[value_at..].find('<').unwrap_or(0)];
    let seconds: u32 = section(text, "retry_after")
        .trim_end_matches(" seconds")
        .parse()
        .unwrap_or(0);
    let mut out = String::with_capacity(600);
    out.push_str("{\"kind\":\"tool_error\",\"code\":\"NOT_FOUND\",\"message\":");
    json_string(&mut out, message);
    out.push_str(",\"severity\":\"error\",\"category\":\"business\",\"retryable\":false,\"recovery\":");
    json_string(&mut out, recovery);
    out.push_str(",\"error\":{\"code\":\"NOT_FOUND\",\"message\":");
    json_string(&mut out, message);
    out.push_str(",\"suggestion\":");
    json_string(&mut out, recovery);
    out.push_str(",\"availableActions\":[");
    json_string(&mut out, action);
    out.push_str("],\"details\":{");
    json_string(&mut out, key);
    out.push(':');
    json_string(&mut out, value);
    out.push_str(&format!("}},\"retryAfter\":{seconds}}}}}"));
    out
}
