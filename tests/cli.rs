//! The `mcp-envelope` command as a user runs it: stdin in, one envelope and a
//! newline out; bad input is exit status 2 with one line on stderr.

use std::io::Write;
use std::process::{Command, Stdio};

struct Run {
    status: i32,
    stdout: String,
    stderr: String,
}

fn cli(args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-envelope"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A usage error exits before reading stdin; the broken pipe is expected then.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let out = child.wait_with_output().unwrap();
    Run {
        status: out.status.code().unwrap(),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

const NOT_FOUND_SPEC: &str = r#"{"code":"NOT_FOUND","message":"No invoice with that ID","suggestion":"List invoices first, then retry with a real ID","availableActions":["billing.list_invoices"],"details":{"requestedId":"inv_2026_9999"},"retryAfter":30}"#;

const NOT_FOUND_XML: &str = r#"<tool_error code="NOT_FOUND" severity="error">
  <message>No invoice with that ID</message>
  <recovery>List invoices first, then retry with a real ID</recovery>
  <available_actions>
    <action>billing.list_invoices</action>
  </available_actions>
  <details>
    <detail key="requestedId">inv_2026_9999</detail>
  </details>
  <retry_after>30 seconds</retry_after>
</tool_error>
"#;

#[test]
fn render_prints_the_seed_not_found_envelope_byte_for_byte() {
    let run = cli(&["render"], NOT_FOUND_SPEC);
    assert_eq!(
        (run.status, run.stdout.as_str(), run.stderr.as_str()),
        (0, NOT_FOUND_XML, "")
    );
    assert_eq!(
        cli(&["render", "--format", "xml"], NOT_FOUND_SPEC).stdout,
        NOT_FOUND_XML
    );
    assert_eq!(cli(&["render", "--format=xml"], NOT_FOUND_SPEC).stdout, NOT_FOUND_XML);
}

#[test]
fn render_text_prints_the_seed_four_lines() {
    let spec = r#"{"code":"AMOUNT_ABOVE_REFUNDABLE","message":"Requested 4500 cents, refundable balance on order A-8812 is 3200 cents.","suggestion":"Retry refund_order with amount_cents at or below 3200, or call get_order to confirm the balance.","retryable":true}"#;
    let run = cli(&["render", "--format", "text"], spec);
    assert_eq!(
        run.stdout,
        "error_code: AMOUNT_ABOVE_REFUNDABLE\n\
         what_failed: Requested 4500 cents, refundable balance on order A-8812 is 3200 cents.\n\
         next_action: Retry refund_order with amount_cents at or below 3200, or call get_order to confirm the balance.\n\
         retryable: true\n"
    );
}

#[test]
fn result_prints_a_call_tool_result() {
    let run = cli(
        &["result", "--format", "json"],
        r#"{"code":"TIMEOUT","message":"Slow upstream","severity":"warning"}"#,
    );
    assert_eq!(run.status, 0);
    assert_eq!(
        run.stdout,
        concat!(
            r#"{"content":[{"type":"text","text":"{\"code\":\"TIMEOUT\",\"severity\":\"warning\",\"errorCategory\":\"transient\",\"isRetryable\":true,"#,
            r#"\"reason\":\"Slow upstream\",\"recovery\":\"Retry once after a short wait; if it times out again, tell the user the service is slow.\"}"}],"isError":false}"#,
            "\n"
        )
    );
}

#[test]
fn parse_reads_any_form_back_to_the_spec() {
    for format in ["xml", "json", "text"] {
        let rendered = cli(&["render", "--format", format], NOT_FOUND_SPEC).stdout;
        let run = cli(&["parse"], &rendered);
        assert_eq!((run.status, run.stdout.trim_end()), (0, NOT_FOUND_SPEC), "{format}");
    }
    let result = cli(&["result"], NOT_FOUND_SPEC).stdout;
    assert_eq!(cli(&["parse"], &result).stdout.trim_end(), NOT_FOUND_SPEC);
}

#[test]
fn render_caps_a_16_mb_message_with_the_default_limits() {
    let spec = format!(r#"{{"code":"X","message":"{}"}}"#, "x".repeat(16 << 20));
    // 500 characters: 473 kept, then `… [16776743 characters cut]`.
    let message = format!("{}… [16776743 characters cut]", "x".repeat(473));
    let run = cli(&["render"], &spec);
    let xml = format!("<tool_error code=\"X\" severity=\"error\">\n  <message>{message}</message>\n</tool_error>\n");
    assert_eq!(
        (run.status, run.stdout.as_str(), run.stderr.as_str()),
        (0, xml.as_str(), "")
    );
    let run = cli(&["result", "--format", "json"], &spec);
    let json = format!(
        r#"{{"content":[{{"type":"text","text":"{{\"code\":\"X\",\"severity\":\"error\",\"isRetryable\":false,\"reason\":\"{message}\"}}"}}],"isError":true}}"#
    );
    assert_eq!((run.status, run.stdout.trim_end()), (0, json.as_str()));
}

#[test]
fn render_takes_the_limits_a_spec_gives() {
    let spec = r#"{"code":"X","message":"The invoice service timed out after 30 seconds.","availableActions":["a","b"],"limits":{"messageChars":40,"actions":1}}"#;
    let run = cli(&["render", "--format", "text"], spec);
    assert_eq!(
        run.stdout,
        "error_code: X\nwhat_failed: The invoice service… [28 characters cut]\nretryable: false\n\
         available_actions: [\"a\"]\nomitted_actions: 1\n"
    );
}

#[test]
fn parse_without_an_envelope_exits_1() {
    let run = cli(&["parse"], "Found 3 invoices.\n");
    assert_eq!(run.status, 1);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "mcp-envelope: no envelope: the text holds no <tool_error>, JSON error or error_code: lines\n"
    );
}

#[test]
fn bad_input_exits_2_with_one_line_on_stderr_and_nothing_on_stdout() {
    let cases: &[(&[&str], &str, &str)] = &[
        (&["render"], r#"{"code":"NOT_FOUND","mesage":"x"}"#, "mcp-envelope: stdin: the spec: unknown field `mesage`, expected one of `code`, `message`, `suggestion`, `availableActions`, `omittedActions`, `details`, `omittedDetails`, `retryAfter`, `severity`, `category`, `retryable`, `customerMessage`, `correlationId`, `deltas`, `omittedDeltas`, `locale`, `localizeSteering`, `limits`, `toolFailure`\n"),
        (&["result"], "not json", "mcp-envelope: stdin: invalid JSON in the spec: expected ident at line 1 column 2\n"),
        (&["render"], r#"{"code":"X","message":"m","retryAfter":-3}"#, "mcp-envelope: stdin: retryAfter: must not be negative\n"),
        (&["parse"], "<tool_error code=\"X\"><message>m</tool_error>", "mcp-envelope: malformed <tool_error> envelope at byte 31: ill-formed document: expected `</message>`, but `</tool_error>` was found\n"),
    ];
    for (args, stdin, stderr) in cases {
        let run = cli(args, stdin);
        assert_eq!(
            (run.status, run.stdout.as_str(), run.stderr.as_str()),
            (2, "", *stderr),
            "{args:?} {stdin}"
        );
    }
}

#[test]
fn invalid_utf8_on_stdin_is_bad_input() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-envelope"))
        .arg("render")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"{\"code\":\"\xff\"}").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "mcp-envelope: stdin is not UTF-8: invalid byte at offset 9\n"
    );
}

#[test]
fn usage_errors_exit_2() {
    for (args, first_line) in [
        (&[][..], "mcp-envelope: no command given"),
        (&["draw"][..], "mcp-envelope: unknown command \"draw\""),
        (
            &["render", "--format", "yaml"][..],
            "mcp-envelope: unknown format \"yaml\"",
        ),
        (
            &["parse", "--format", "xml"][..],
            "mcp-envelope: unexpected argument \"--format\" for \"parse\"",
        ),
    ] {
        let run = cli(args, "");
        assert_eq!(run.status, 2, "{args:?}");
        assert_eq!(run.stdout, "");
        assert_eq!(run.stderr.lines().next(), Some(first_line), "{args:?}");
        assert!(run.stderr.contains("usage: mcp-envelope render"));
    }
}

const SEED_VALIDATION: &str = "<validation_error action=\"billing.get_invoice\">
  <field name=\"id\">Invalid email format. You sent: 'not-an-email'. Expected a valid email address.</field>
  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>
</validation_error>
";

#[test]
fn validate_prints_the_seed_validation_envelope_byte_for_byte() {
    let issues = r#"[{"path":["id"],"code":"invalid_format","format":"email","input":"not-an-email"}]"#;
    let run = cli(&["validate", "--action", "billing.get_invoice"], issues);
    assert_eq!(
        (run.status, run.stdout.as_str(), run.stderr.as_str()),
        (0, SEED_VALIDATION, "")
    );
    let wrapped = format!(r#"{{"issues":{issues},"deltas":[]}}"#);
    assert_eq!(
        cli(&["validate", "--action=billing.get_invoice"], &wrapped).stdout,
        SEED_VALIDATION
    );
}

#[test]
fn validate_caps_fields_with_max_fields() {
    let issues = r#"[{"path":["a"],"code":"missing_required"},{"path":["b"],"code":"missing_required"}]"#;
    let run = cli(&["validate", "--action", "t", "--max-fields", "1"], issues);
    assert_eq!(
        run.stdout,
        "<validation_error action=\"t\">
  <field name=\"a\">Missing required field. You sent: nothing. Expected a value.</field>
  <more_fields count=\"1\">1 more invalid field is not listed.</more_fields>
  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>
</validation_error>
"
    );
}

#[test]
fn validate_refuses_bad_input_with_one_line() {
    let cases: &[(&[&str], &str, &str)] = &[
        (&["validate", "--action", "a"], r#"[{"path":["x"],"code":"invalid_string"}]"#, "mcp-envelope: stdin: issues[0].code: unknown variant `invalid_string`, expected one of `invalid_type`, `too_small`, `too_big`, `invalid_format`, `not_multiple_of`, `unrecognized_keys`, `invalid_union`, `invalid_key`, `invalid_element`, `invalid_value`, `custom`, `missing_required`\n"),
        (&["validate", "--action", "a"], r#"{"issues":[],"extra":1}"#, "mcp-envelope: stdin: the input: unknown field `extra`, expected `issues` or `deltas`\n"),
        (&["validate", "--action", "a"], "[", "mcp-envelope: stdin: invalid JSON in issues: EOF while parsing a list at line 1 column 1\n"),
    ];
    for (args, stdin, stderr) in cases {
        let run = cli(args, stdin);
        assert_eq!(
            (run.status, run.stdout.as_str(), run.stderr.as_str()),
            (2, "", *stderr),
            "{stdin}"
        );
    }
    let run = cli(&["validate"], "[]");
    assert_eq!(
        (run.status, run.stderr.lines().next()),
        (2, Some("mcp-envelope: validate needs --action NAME"))
    );
    let run = cli(&["validate", "--action", "a", "--max-fields", "-1"], "[]");
    assert_eq!(
        run.stderr.lines().next(),
        Some("mcp-envelope: --max-fields must be a whole number, not \"-1\"")
    );
}

#[test]
fn parse_reads_a_validation_envelope_back() {
    let run = cli(&["parse"], SEED_VALIDATION);
    assert_eq!(
        run.stdout,
        "{\"action\":\"billing.get_invoice\",\"fields\":[{\"name\":\"id\",\"text\":\"Invalid email format. You sent: 'not-an-email'. Expected a valid email address.\"}],\"deltas\":[]}\n"
    );
}

#[test]
fn lone_surrogate_escapes_render_as_replacement_characters() {
    // What `JSON.stringify` writes for a string cut in the middle of an emoji.
    let run = cli(
        &["render", "--format", "text"],
        r#"{"code":"X","message":"cut \ud83d here","details":{"k\udc00":"\ud83d\ude00 whole"}}"#,
    );
    assert_eq!(run.status, 0, "stderr: {}", run.stderr);
    assert_eq!(
        run.stdout,
        "error_code: X\nwhat_failed: cut \u{fffd} here\nretryable: false\ndetails: {\"k\u{fffd}\":\"\u{1f600} whole\"}\n"
    );
}
