//! The `mcp-envelope` command as a user runs it: stdin (or a FILE) in, one
//! envelope and a newline out; bad input or usage is exit status 2 with one
//! line on stderr; `--help` and `--version` are exit status 0 on stdout.

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
    // clap's message, flattened to one line, its tip in parentheses, and where to look.
    for (args, line) in [
        (
            &[][..],
            "mcp-envelope: no command given (commands: render, result, validate, parse, exception, upstream, access, empty, partial, audit, contract, call); see 'mcp-envelope --help'",
        ),
        (&["draw"][..], "mcp-envelope: unrecognized subcommand 'draw'; see 'mcp-envelope --help'"),
        (
            &["rendr"][..],
            "mcp-envelope: unrecognized subcommand 'rendr' (a similar subcommand exists: 'render'); see 'mcp-envelope --help'",
        ),
        (
            &["render", "--format", "yaml"][..],
            "mcp-envelope: invalid value 'yaml' for '--format <FORMAT>' [possible values: xml, json, text] (a similar value exists: 'xml'); see 'mcp-envelope render --help'",
        ),
        (
            &["parse", "--format", "xml"][..],
            "mcp-envelope: unexpected argument '--format' found (to pass '--format' as a value, use '-- --format'); see 'mcp-envelope parse --help'",
        ),
        (
            &["render", "a.json", "b.json"][..],
            "mcp-envelope: unexpected argument 'b.json' found; see 'mcp-envelope render --help'",
        ),
        (
            &["contract"][..],
            "mcp-envelope: no contract command given (commands: lock, diff); see 'mcp-envelope contract --help'",
        ),
        (
            &["contract", "diff", "tools.json"][..],
            "mcp-envelope: the following required arguments were not provided: --lock <LOCKFILE>; see 'mcp-envelope contract diff --help'",
        ),
        (
            &["--verbose"][..],
            "mcp-envelope: unexpected argument '--verbose' found (a similar argument exists: '--version'); see 'mcp-envelope --help'",
        ),
    ] {
        let run = cli(args, "");
        assert_eq!(
            (run.status, run.stdout.as_str(), run.stderr.as_str()),
            (2, "", format!("{line}\n").as_str()),
            "{args:?}"
        );
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
fn validate_spec_reads_a_whole_validation_spec_with_its_input_schema() {
    let spec = r#"{"action":"billing.refund_order","issues":[{"path":["quantity"],"code":"invalid_type","expected":"number","input":"abc"}],"inputSchema":{"type":"object","properties":{"quantity":{"type":"integer","minimum":1}}}}"#;
    let run = cli(&["validate", "--spec"], spec);
    assert_eq!((run.status, run.stderr.as_str()), (0, ""));
    assert_eq!(
        run.stdout,
        "<validation_error action=\"billing.refund_order\">\n  <field name=\"quantity\">Wrong type. You sent: 'abc'. Expected an integer.</field>\n  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n</validation_error>\n"
    );
    let refused = cli(
        &["validate", "--spec"],
        r#"{"action":"a","issues":[],"inputSchema":true}"#,
    );
    assert_eq!(
        (refused.status, refused.stdout.as_str(), refused.stderr.as_str()),
        (
            2,
            "",
            "mcp-envelope: stdin: \"inputSchema\" must be the tool's input schema, a JSON object, not a boolean\n"
        )
    );
    let both = cli(&["validate", "--spec", "--action", "a"], "{}");
    assert_eq!(
        (both.status, both.stderr.as_str()),
        (2, "mcp-envelope: the argument '--spec' cannot be used with '--action <NAME>'; see 'mcp-envelope validate --help'\n")
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
    let usage: &[(&[&str], &str)] = &[
        (&["validate"], "mcp-envelope: the following required arguments were not provided: --action <NAME>; see 'mcp-envelope validate --help'\n"),
        (&["validate", "--action="], "mcp-envelope: a value is required for '--action <NAME>' but none was supplied; see 'mcp-envelope validate --help'\n"),
        (&["validate", "--action", "a", "--max-fields", "-1"], "mcp-envelope: invalid value '-1' for '--max-fields <N>': invalid digit found in string; see 'mcp-envelope validate --help'\n"),
    ];
    for (args, stderr) in usage {
        let run = cli(args, "[]");
        assert_eq!(
            (run.status, run.stdout.as_str(), run.stderr.as_str()),
            (2, "", *stderr),
            "{args:?}"
        );
    }
}

#[test]
fn parse_reads_a_partial_result_back_in_each_form() {
    // What the envelope states, the defaults it was rendered with included.
    let spec = concat!(
        r#"{"obtained":["inv_7: 10.00 EUR, open"],"#,
        r#""failed":[{"item":"the 2025 archive","code":"TIMEOUT","category":"transient","retryable":true}],"#,
        r#""recovery":"Keep what was obtained and do not repeat what was tried. Retry only the failed items marked retryable; "#,
        r#"for the others, get access, use another source, or report the gap."}"#
    );
    for format in ["xml", "json", "text"] {
        let input = format!(
            r#"{{"obtained":["inv_7: 10.00 EUR, open"],"failed":[{{"item":"the 2025 archive","code":"TIMEOUT"}}],"format":"{format}"}}"#
        );
        let rendered = cli(&["partial", "--envelope"], &input).stdout;
        let run = cli(&["parse"], &rendered);
        assert_eq!((run.status, run.stdout.trim_end()), (0, spec), "{format}");
    }
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

#[test]
fn help_and_version_exit_0_on_stdout() {
    let commands = [
        "render",
        "result",
        "validate",
        "parse",
        "exception",
        "upstream",
        "access",
        "empty",
        "partial",
    ];
    let top = cli(&["--help"], "");
    assert_eq!((top.status, top.stderr.as_str()), (0, ""));
    assert!(top.stdout.contains("Usage: mcp-envelope <COMMAND>"), "{}", top.stdout);
    assert!(top
        .stdout
        .contains("Exit status: 0 done; 1 `parse` found no envelope; 2 bad input or usage."));
    for command in commands {
        assert!(top.stdout.contains(&format!("\n  {command} ")), "{command} in --help");
    }
    for args in [&["-h"][..], &["help"][..]] {
        let run = cli(args, "");
        assert_eq!((run.status, run.stderr.as_str()), (0, ""), "{args:?}");
        assert!(
            run.stdout.starts_with("Recoverable error envelopes for MCP tools"),
            "{args:?}"
        );
    }
    for command in commands {
        for flag in ["--help", "-h"] {
            let run = cli(&[command, flag], "");
            assert_eq!((run.status, run.stderr.as_str()), (0, ""), "{command} {flag}");
            assert!(
                run.stdout.contains(&format!("Usage: mcp-envelope {command} ")),
                "{command} {flag}: {}",
                run.stdout
            );
            assert!(run.stdout.contains("[FILE]"), "{command} {flag}");
        }
    }
    let render = cli(&["render", "--help"], "");
    assert!(render
        .stdout
        .starts_with("Renders an error spec (JSON) as its envelope.\n"));
    assert!(render.stdout.contains("[possible values: xml, json, text]"));
    for flag in ["--version", "-V"] {
        let run = cli(&[flag], "");
        assert_eq!(
            (run.status, run.stdout.as_str(), run.stderr.as_str()),
            (0, concat!("mcp-envelope ", env!("CARGO_PKG_VERSION"), "\n"), ""),
            "{flag}"
        );
    }
}

/// A file under the test target's scratch folder, holding `bytes`.
fn scratch_file(name: &str, bytes: &[u8]) -> String {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_owned()
}

#[test]
fn a_file_argument_is_read_instead_of_stdin() {
    let spec = scratch_file("cli-not-found.json", NOT_FOUND_SPEC.as_bytes());
    // The file wins over whatever stdin holds.
    let run = cli(&["render", &spec], "not json");
    assert_eq!(
        (run.status, run.stdout.as_str(), run.stderr.as_str()),
        (0, NOT_FOUND_XML, "")
    );
    assert_eq!(cli(&["render", "--format", "xml", &spec], "").stdout, NOT_FOUND_XML);
    assert_eq!(
        cli(&["result", &spec], "").stdout,
        cli(&["result"], NOT_FOUND_SPEC).stdout
    );
    // `-` is stdin.
    assert_eq!(cli(&["render", "-"], NOT_FOUND_SPEC).stdout, NOT_FOUND_XML);
    let envelope = scratch_file("cli-not-found.xml", NOT_FOUND_XML.as_bytes());
    assert_eq!(cli(&["parse", &envelope], "").stdout.trim_end(), NOT_FOUND_SPEC);
    let issues = scratch_file(
        "cli-issues.json",
        br#"[{"path":["id"],"code":"invalid_format","format":"email","input":"not-an-email"}]"#,
    );
    assert_eq!(
        cli(&["validate", "--action", "billing.get_invoice", &issues], "").stdout,
        SEED_VALIDATION
    );

    // A refusal names the file, as it names stdin.
    let bad = scratch_file("cli-bad.json", br#"{"code":"X","message":"m","retryAfter":-3}"#);
    let run = cli(&["render", &bad], "");
    assert_eq!(
        (run.status, run.stdout.as_str(), run.stderr),
        (
            2,
            "",
            format!("mcp-envelope: {bad}: retryAfter: must not be negative\n")
        )
    );
    let latin1 = scratch_file("cli-latin1.json", b"{\"code\":\"\xe9\"}");
    let run = cli(&["render", &latin1], "");
    assert_eq!(
        (run.status, run.stderr),
        (
            2,
            format!("mcp-envelope: {latin1} is not UTF-8: invalid byte at offset 9\n")
        )
    );
    let missing = format!("{}/no-such-file.json", env!("CARGO_TARGET_TMPDIR"));
    let run = cli(&["empty", &missing], "");
    assert_eq!((run.status, run.stdout.as_str()), (2, ""));
    assert!(
        run.stderr
            .starts_with(&format!("mcp-envelope: cannot read {missing}: ")),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1);
}

#[test]
fn exception_prints_the_report() {
    let run = cli(
        &["exception"],
        r#"{"tool":"charge","exception":"ZeroDivisionError: division by zero","random":"9F86D081884C7D650A2F"}"#,
    );
    assert_eq!(
        (run.status, run.stdout.as_str(), run.stderr.as_str()),
        (
            0,
            concat!(
                r#"{"result":{"content":[{"type":"text","text":"<tool_error code=\"INTERNAL_ERROR\" severity=\"error\">\n  <message>charge failed with an internal error.</message>\n"#,
                r#"  <recovery>Do not retry blindly: the same call is likely to fail again. Tell the user the tool failed, quoting the correlation id if there is one.</recovery>\n"#,
                r#"  <customer_message>Something went wrong on our side. It was recorded under the reference err_9f86d081884c.</customer_message>\n"#,
                r#"  <correlation_id>err_9f86d081884c</correlation_id>\n</tool_error>"}],"isError":true},"correlationId":"err_9f86d081884c","#,
                r#""log":"code=INTERNAL_ERROR correlationId=\"err_9f86d081884c\" tool=\"charge\" exception=\"ZeroDivisionError: division by zero\""}"#,
                "\n"
            ),
            ""
        )
    );
}

#[test]
fn upstream_prints_the_error_spec_and_the_log() {
    // Retry-After as an HTTP-date, 30 seconds after `now`.
    let run = cli(
        &["upstream"],
        r#"{"status":429,"headers":{"Retry-After":"Sun, 06 Nov 1994 08:49:37 GMT"},"now":784111747}"#,
    );
    assert_eq!(
        (run.status, run.stdout.as_str(), run.stderr.as_str()),
        (
            0,
            concat!(
                r#"{"error":{"code":"RATE_LIMITED","message":"The upstream service is rate limiting requests (HTTP 429).","retryAfter":30,"#,
                r#""customerMessage":"The service is receiving too many requests right now. Please try again in a moment."},"log":{"status":429,"body":""}}"#,
                "\n"
            ),
            ""
        )
    );
}

#[test]
fn access_prints_the_error_spec() {
    let run = cli(
        &["access"],
        r#"{"kind":"forbidden","action":"refund","resource":"order A-8812"}"#,
    );
    assert_eq!(
        (run.status, run.stdout.as_str(), run.stderr.as_str()),
        (
            0,
            concat!(
                r#"{"code":"FORBIDDEN","message":"Not permitted: the caller may not refund order A-8812.","#,
                r#""customerMessage":"You don't have permission to do this. If you need it, ask an administrator for access."}"#,
                "\n"
            ),
            ""
        )
    );
}

#[test]
fn empty_prints_a_successful_result() {
    let run = cli(&["empty"], r#"{"what":"orders","query":"for jo@example.com"}"#);
    assert_eq!(
        (run.status, run.stdout.as_str(), run.stderr.as_str()),
        (
            0,
            concat!(
                r#"{"content":[{"type":"text","text":"0 orders found for jo@example.com.\nThe query ran and matched nothing: "#,
                r#"this is a valid answer, not an error. Do not repeat the same query."}],"isError":false}"#,
                "\n"
            ),
            ""
        )
    );
}

const PARTIAL_SPEC: &str =
    r#"{"obtained":["Company A: 10-K 2024"],"failed":[{"item":"Company C","code":"FORBIDDEN"}]}"#;

const PARTIAL_XML: &str = "<partial_result severity=\"warning\">
  <summary>Obtained 1 of 2 items; 1 failed.</summary>
  <obtained>
    <item>Company A: 10-K 2024</item>
  </obtained>
  <failed>
    <failure item=\"Company C\" code=\"FORBIDDEN\" category=\"permission\" retryable=\"false\"/>
  </failed>
  <recovery>Keep what was obtained and do not repeat what was tried. Retry only the failed items marked retryable; for the others, get access, use another source, or report the gap.</recovery>
</partial_result>
";

#[test]
fn partial_prints_the_result_or_with_envelope_the_envelope() {
    let run = cli(&["partial"], PARTIAL_SPEC);
    let text = PARTIAL_XML.trim_end().replace('"', "\\\"").replace('\n', "\\n");
    assert_eq!(
        (run.status, run.stdout.as_str(), run.stderr.as_str()),
        (
            0,
            format!("{{\"content\":[{{\"type\":\"text\",\"text\":\"{text}\"}}],\"isError\":false}}\n").as_str(),
            ""
        )
    );
    let run = cli(&["partial", "--envelope"], PARTIAL_SPEC);
    assert_eq!(
        (run.status, run.stdout.as_str(), run.stderr.as_str()),
        (0, PARTIAL_XML, "")
    );
}

#[test]
fn the_recovery_commands_refuse_bad_input_with_one_line() {
    let cases: &[(&[&str], &str, &str)] = &[
        (&["exception"], r#"{"tool":"charge","exception":"boom"}"#, "mcp-envelope: stdin: missing \"correlationId\" or \"random\": give the caller's correlation id, or host randomness (at least 12 hex digits) for a fresh one\n"),
        (&["upstream"], r#"{"status":200}"#, "mcp-envelope: stdin: \"status\" is 200: an upstream failure is an HTTP status from 400 to 599\n"),
        (&["access"], r#"{"kind":"maybe"}"#, "mcp-envelope: stdin: kind: unknown variant `maybe`, expected `forbidden` or `auth-required`\n"),
        (&["empty"], "[]", "mcp-envelope: stdin: the empty-result input must be a JSON object, not an array\n"),
        (&["partial"], r#"{"obtained":[],"failed":[]}"#, "mcp-envelope: stdin: \"failed\" is empty: a partial result has at least one failed item; when nothing failed, return the results as a normal success\n"),
        (&["partial", "--envelope"], "[]", "mcp-envelope: stdin: the partial result spec must be a JSON object, not an array\n"),
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

// The library's vector loader, shared with its own runners.
#[allow(dead_code)]
#[path = "../../tests/common/mod.rs"]
mod common;

/// Every `call` vector of the recovery helpers and the partial result, run
/// through its command: the exact output and a newline, or the exact refusal
/// as one line.
#[test]
fn the_recovery_commands_match_every_call_vector() {
    use common::vectors::{load_all, CaseKind};
    let mut ran = 0;
    for case in load_all() {
        let CaseKind::Call { name, input, outcome } = case.kind else {
            continue;
        };
        let args: &[&str] = match name.as_str() {
            "exception-result" => &["exception"],
            "upstream-error" => &["upstream"],
            "access-error" => &["access"],
            "empty-result" => &["empty"],
            "partial-result" => &["partial"],
            "render-partial" => &["partial", "--envelope"],
            _ => continue,
        };
        let run = cli(args, &input);
        let got = (run.status, run.stdout, run.stderr);
        let want = match outcome {
            Ok(output) => (0, format!("{output}\n"), String::new()),
            Err(refusal) => (2, String::new(), format!("mcp-envelope: stdin: {refusal}\n")),
        };
        if let Err(diff) = common::same(&case.name, &format!("{got:?}"), &format!("{want:?}")) {
            panic!("{diff}");
        }
        ran += 1;
    }
    assert!(ran > 50, "only {ran} call vectors");
}

/// `audit` refuses what it cannot run with one line and status 2: no server
/// command or URL (or both), a server that cannot start or never
/// initializes, a bad plan. (The audit of a remote server is `remote` below;
/// of the billing servers and the filesystem server over stdio, scripts/demo's.)
#[test]
fn audit_refuses_what_it_cannot_run() {
    let plan = std::env::temp_dir().join(format!("mcp-envelope-bad-plan-{}.json", std::process::id()));
    std::fs::write(
        &plan,
        r#"{"calls":[{"name":"x","tool":"t","expect":{"branch":"maybe"}}]}"#,
    )
    .unwrap();
    let plan_arg = plan.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["audit"], "mcp-envelope: the following required arguments were not provided: <--url <URL>|COMMAND>; see 'mcp-envelope audit --help'\n"),
        (&["audit", "--url", "http://127.0.0.1:9/mcp", "--", "node", "server.js"], "mcp-envelope: the argument '--url <URL>' cannot be used with '[COMMAND]...'; see 'mcp-envelope audit --help'\n"),
        (&["audit", "--header", "A: b", "--", "true"], "mcp-envelope: the argument '--header <NAME: VALUE>' cannot be used with '[COMMAND]...'; see 'mcp-envelope audit --help'\n"),
        (&["audit", "--url", "127.0.0.1:8000/mcp"], "mcp-envelope: --url \"127.0.0.1:8000/mcp\": expected an http:// or https:// URL\n"),
        (&["audit", "--spec", "2025-06-18", "--", "true"], "mcp-envelope: invalid value '2025-06-18' for '--spec <REVISION>' [possible values: 2025-11-25, 2026-07-28] (a similar value exists: '2026-07-28'); see 'mcp-envelope audit --help'\n"),
        (&["audit", "--", "/nonexistent/mcp-server"], "mcp-envelope: could not start /nonexistent/mcp-server: No such file or directory (os error 2)\n"),
        (&["audit", "--plan", plan_arg, "--", "true"], "mcp-envelope: the plan: call \"x\": unknown branch \"maybe\", expected wait-and-retry, fix-and-retry, stop-and-tell or accept\n"),
        (&["audit", "--min-score", "101", "--", "true"], "mcp-envelope: invalid value '101' for '--min-score <N>': 101 is not in 0..=100; see 'mcp-envelope audit --help'\n"),
    ];
    for (args, stderr) in cases {
        let run = cli(args, "");
        assert_eq!(
            (run.status, run.stdout.as_str(), run.stderr.as_str()),
            (2, "", *stderr),
            "{args:?}"
        );
    }
    let silent = cli(&["audit", "--timeout", "5", "--", "true"], "");
    assert_eq!((silent.status, silent.stdout.as_str()), (2, ""));
    assert!(
        silent.stderr.starts_with("mcp-envelope: true did not initialize: "),
        "{}",
        silent.stderr
    );
    std::fs::remove_file(plan).unwrap();
}

/// Yesterday's tools and today's: `refund_order` gained a required field,
/// lost an upper bound, and `get_invoice` was reworded.
const TOOLS_BEFORE: &str = r#"{"tools":[{"name":"refund_order","inputSchema":{"type":"object","properties":{"order_id":{"type":"string"},"amount":{"type":"number","maximum":10000.0}},"required":["order_id"]}},{"name":"get_invoice","description":"Fetch one invoice","inputSchema":{"type":"object"}}]}"#;
const TOOLS_AFTER: &str = r#"{"tools":[{"name":"get_invoice","description":"Fetch one invoice by id","inputSchema":{"type":"object"}},{"name":"refund_order","inputSchema":{"type":"object","properties":{"order_id":{"type":"string"},"amount":{"type":"number"},"reason":{"type":"string"}},"required":["order_id","reason"]}}]}"#;

/// A lockfile written by `contract lock`, in a temporary file of the test's own (`name`).
fn lockfile(name: &str, tools: &str) -> std::path::PathBuf {
    let run = cli(&["contract", "lock"], tools);
    assert_eq!((run.status, run.stderr.as_str()), (0, ""));
    let path = std::env::temp_dir().join(format!("mcp-envelope-{name}-{}.lock.json", std::process::id()));
    std::fs::write(&path, run.stdout).unwrap();
    path
}

#[test]
fn contract_lock_writes_the_canonical_lockfile() {
    let run = cli(&["contract", "lock", "-"], TOOLS_BEFORE);
    assert_eq!(run.status, 0);
    assert!(
        run.stdout.starts_with("{\n  \"lockfileVersion\": 1,\n  \"sha256\": \""),
        "{}",
        run.stdout
    );
    // Tools by name, keys sorted, `10000.0` spelled as the core spells numbers.
    let at = |needle: &str| {
        run.stdout
            .find(needle)
            .unwrap_or_else(|| panic!("{needle} in {}", run.stdout))
    };
    assert!(at("\"get_invoice\"") < at("\"refund_order\""));
    assert!(at("\"maximum\": 10000,\n") > 0);
    assert!(run.stdout.ends_with("\n  ]\n}\n"));
    // The lockfile locks to itself.
    let again = cli(&["contract", "lock"], &run.stdout);
    assert_eq!(again.stdout, run.stdout);
}

#[test]
fn contract_diff_exits_1_on_a_breaking_change_and_prints_the_deltas() {
    let lock = lockfile("diff", TOOLS_BEFORE);
    let lock_arg = lock.to_str().unwrap();
    let run = cli(&["contract", "diff", "--lock", lock_arg], TOOLS_AFTER);
    assert_eq!(run.status, 1, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        concat!(
            r#"[{"severity":"COSMETIC","action":"get_invoice","field":"(tool).description","description":"get_invoice's description changed","before":"Fetch one invoice","after":"Fetch one invoice by id"},"#,
            r#"{"severity":"SAFE","action":"refund_order","field":"amount","description":"amount no longer has a maximum","before":"at most 10000"},"#,
            r#"{"severity":"BREAKING","action":"refund_order","field":"reason","description":"reason is a new required field"}]"#,
            "\n"
        )
    );
    let text = cli(
        &["contract", "diff", "--lock", lock_arg, "--format", "text"],
        TOOLS_AFTER,
    );
    assert_eq!(
        (text.status, text.stdout.as_str()),
        (
            1,
            "BREAKING  refund_order  reason: reason is a new required field\n\
             SAFE      refund_order  amount: amount no longer has a maximum (was at most 10000)\n\
             COSMETIC  get_invoice  (tool).description: get_invoice's description changed (was Fetch one invoice)\n\
             3 changes: 1 BREAKING, 0 RISKY, 1 SAFE, 1 COSMETIC\n"
        )
    );
    // The same list again: nothing changed, exit 0.
    let same = cli(&["contract", "diff", "--lock", lock_arg], TOOLS_BEFORE);
    assert_eq!((same.status, same.stdout.as_str()), (0, "[]\n"));
    std::fs::remove_file(lock).unwrap();
}

#[test]
fn contract_diff_exits_2_on_bad_input() {
    let lock = lockfile("bad-input", TOOLS_BEFORE);
    let lock_arg = lock.to_str().unwrap();
    let run = cli(
        &["contract", "diff", "--lock", lock_arg],
        "{\"tools\": [{\"title\": \"x\"}]}",
    );
    assert_eq!(
        (run.status, run.stdout.as_str(), run.stderr.as_str()),
        (2, "", "mcp-envelope: stdin: tools[0] has no \"name\" string\n")
    );
    let missing = cli(
        &["contract", "diff", "--lock", "/nonexistent/tools.lock.json"],
        TOOLS_AFTER,
    );
    assert_eq!(missing.status, 2);
    assert!(
        missing
            .stderr
            .starts_with("mcp-envelope: cannot read /nonexistent/tools.lock.json: "),
        "{}",
        missing.stderr
    );
    // A lockfile edited by hand no longer matches its hash.
    let edited = std::fs::read_to_string(&lock).unwrap().replace("10000", "20000");
    std::fs::write(&lock, edited).unwrap();
    let run = cli(&["contract", "diff", "--lock", lock_arg], TOOLS_AFTER);
    assert_eq!(run.status, 2);
    assert_eq!(
        run.stderr,
        format!("mcp-envelope: {lock_arg}: its sha256 does not match its tools (edited by hand?): write it again with `contract lock`\n")
    );
    std::fs::remove_file(lock).unwrap();
}

// The rmcp tests' billing server (the audit reaches only some of it), and
// how it is served over HTTP.
mod http_server;
#[allow(dead_code)]
#[path = "../../tests/rmcp_server/mod.rs"]
mod rmcp_server;

/// The audit of a remote server: an rmcp server over Streamable HTTP on
/// loopback, behind a bearer token it checks, given with `--header`. The
/// plain server answers as rmcp does; the same server in `EnvelopeServer`
/// as the specification says, with envelopes.
mod remote {

    use super::cli;
    use super::http_server::{serve, TOKEN};
    use super::rmcp_server::{Billing, Exports};
    use mcp_envelope::rmcp::{EnvelopeServer, UnknownToolAnswer};

    /// Two calls: a tool the server does not have, and one missing its argument.
    const PLAN: &str = r#"{"calls":[
        {"name":"unknown tool","tool":"refund_orders","expect":{"branch":"fix-and-retry"}},
        {"name":"get_invoice: missing id","tool":"get_invoice","arguments":{},"expect":{"branch":"fix-and-retry"}}
    ]}"#;

    fn audit(url: &str, token: &str, extra: &[&str]) -> super::Run {
        audit_plan(url, token, PLAN, extra)
    }

    fn audit_plan(url: &str, token: &str, plan_text: &str, extra: &[&str]) -> super::Run {
        // One file per call: the tests run at once.
        static PLANS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = PLANS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let plan = std::env::temp_dir().join(format!("mcp-envelope-remote-plan-{}-{n}.json", std::process::id()));
        std::fs::write(&plan, plan_text).unwrap();
        let bearer = format!("Authorization: Bearer {token}");
        let mut args = vec![
            "audit",
            "--url",
            url,
            "--header",
            &bearer,
            "--no-probes",
            "--plan",
            plan.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let run = cli(&args, "");
        std::fs::remove_file(plan).unwrap();
        run
    }

    /// The report with the server's port, which differs each run, as PORT.
    fn report(run: &super::Run, url: &str) -> (i32, String, String) {
        (
            run.status,
            run.stderr.clone(),
            run.stdout.replace(url, "http://127.0.0.1:PORT/mcp"),
        )
    }

    const HEAD: &str = "call                     channel        isError  envelope          code              stated  leaks  bytes  branch         expected       ok   spec";

    /// rmcp's own answers: `tool not found` names no tool; a missing
    /// argument is an `isError` result, as the revision asks, but without an
    /// envelope it leaves the model nothing but to stop.
    #[test]
    fn a_remote_rmcp_server_is_graded_by_the_named_revision() {
        let served = serve(Billing::new);
        let run = audit(&served.url, TOKEN, &[]);
        let want = "\
rmcp 3.11.0 (http://127.0.0.1:PORT/mcp), 5 tools, protocol 2025-11-25; graded by MCP 2025-11-25
built on: unknown
call                     channel        isError  envelope  code  stated  leaks  bytes  branch         expected       ok  spec
unknown tool             jsonrpc-error  -        -         -     0/4     -      32     stop-and-tell  fix-and-retry  NO  NO
get_invoice: missing id  result         true     -         -     0/4     -      52     stop-and-tell  fix-and-retry  NO  yes
unknown tool: 2025-11-25's -32602 for an unknown tool, but its message names none of the server's tools: the model has nothing to recover with
score: 4/8 points, 50%
";
        assert_eq!(report(&run, &served.url), (0, String::new(), want.to_owned()));
    }

    /// The same server in `EnvelopeServer`: the unknown tool as the
    /// revision says, a -32602 naming the tools; under 2026-07-28 too, which
    /// rmcp speaks (`server/discover`).
    #[test]
    fn the_enveloped_server_follows_either_revision() {
        let served = serve(|| EnvelopeServer::new(Billing::new()));
        for spec in ["2025-11-25", "2026-07-28"] {
            let run = audit(&served.url, TOKEN, &["--spec", spec]);
            let want = format!("\
rmcp 3.11.0 (http://127.0.0.1:PORT/mcp), 5 tools, protocol {spec}; graded by MCP {spec}
built on: unknown
{HEAD}
unknown tool             jsonrpc-error  -        tool_error        UNKNOWN_ACTION    4/4     -      133    fix-and-retry  fix-and-retry  yes  yes
get_invoice: missing id  result         true     validation_error  VALIDATION_ERROR  4/4     -      243    fix-and-retry  fix-and-retry  yes  yes
score: 8/8 points, 100%
");
            assert_eq!(report(&run, &served.url), (0, String::new(), want), "--spec {spec}");
        }
        // The JSON report: the URL, the revision, the JSON-RPC error whole; never the token.
        let run = audit(&served.url, TOKEN, &["--json"]);
        assert!(!run.stdout.contains(TOKEN));
        let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(
            (&report["url"], &report["spec"], &report["server"]["protocolVersion"]),
            (
                &serde_json::json!(served.url),
                &serde_json::json!("2025-11-25"),
                &serde_json::json!("2025-11-25")
            )
        );
        let unknown = &report["calls"][0];
        assert_eq!(
            (
                &unknown["error"]["code"],
                &unknown["error"]["data"]["code"],
                &unknown["spec"]
            ),
            (
                &serde_json::json!(-32602),
                &serde_json::json!("UNKNOWN_ACTION"),
                &serde_json::json!({"follows": true, "option": null, "why": null})
            )
        );
    }

    /// A call the server runs as a task (SEP-2663) is followed with
    /// `tasks/get` to its end and its result graded: a panic inside the task
    /// is the INTERNAL_ERROR envelope of a `completed` task (`enveloped_task`),
    /// a tool error its envelope. A 2026-07-28 `input_required` result is
    /// graded as it came: `provide-input`, the host's to answer.
    #[test]
    fn a_task_is_followed_to_its_end_and_input_required_is_graded() {
        const TASK_PLAN: &str = r#"{"calls":[
            {"name":"export: a panic in the task","tool":"export_invoices","arguments":{"year":2013},"expect":{"branch":"stop-and-tell","code":"INTERNAL_ERROR"}},
            {"name":"export: a tool error","tool":"export_invoices","arguments":{"year":2015},"expect":{"branch":"fix-and-retry","code":"NOT_FOUND"}},
            {"name":"export: done","tool":"export_invoices","arguments":{"year":2016},"expect":{"branch":"accept"}},
            {"name":"connect the bank","tool":"connect_bank","arguments":{},"expect":{"branch":"provide-input"}}
        ],"secrets":["hunter2"]}"#;
        let exports = Exports::new(true);
        let served = serve(move || EnvelopeServer::new(exports.clone()));
        for spec in ["2025-11-25", "2026-07-28"] {
            let run = audit_plan(&served.url, TOKEN, TASK_PLAN, &["--spec", spec]);
            // 2025-11-25 asks for the URL elicitation with the error -32042 (rmcp
            // refuses to send that revision an input_required result, and
            // EnvelopeServer sends the core's -32042 instead); 2026-07-28 with
            // the input_required result the tool returned.
            let want = match spec {
                "2025-11-25" => "\
exports 1.0.0 (http://127.0.0.1:PORT/mcp), 2 tools, protocol 2025-11-25; graded by MCP 2025-11-25
built on: unknown
call                         channel        isError  envelope    code            stated  leaks  bytes  branch         expected       ok   spec
export: a panic in the task  result         true     tool_error  INTERNAL_ERROR  4/4     -      471    stop-and-tell  stop-and-tell  yes  yes
export: a tool error         result         true     tool_error  NOT_FOUND       4/4     -      147    fix-and-retry  fix-and-retry  yes  yes
export: done                 result         false    -           -               0/4     -      30     accept         accept         yes  yes
connect the bank             jsonrpc-error  -        -           -               0/4     -      42     provide-input  provide-input  yes  yes
score: 16/16 points, 100%
",
                _ => "\
exports 1.0.0 (http://127.0.0.1:PORT/mcp), 2 tools, protocol 2026-07-28; graded by MCP 2026-07-28
built on: unknown
call                         channel  isError  envelope    code            stated  leaks  bytes  branch         expected       ok   spec
export: a panic in the task  result   true     tool_error  INTERNAL_ERROR  4/4     -      471    stop-and-tell  stop-and-tell  yes  yes
export: a tool error         result   true     tool_error  NOT_FOUND       4/4     -      147    fix-and-retry  fix-and-retry  yes  yes
export: done                 result   false    -           -               0/4     -      30     accept         accept         yes  yes
connect the bank             result   false    -           -               0/4     -      0      provide-input  provide-input  yes  yes
score: 16/16 points, 100%
",
            };
            assert_eq!(
                report(&run, &served.url),
                (0, String::new(), want.to_owned()),
                "--spec {spec}"
            );
        }
    }

    /// With the tool-result option the unknown tool is SEP-2145's result:
    /// the right branch, but not the revision's answer, and the option named.
    #[test]
    fn sep_2145_s_result_is_named_as_the_option_it_is() {
        let served = serve(|| EnvelopeServer::new(Billing::new()).unknown_tool(UnknownToolAnswer::ToolResult));
        let run = audit(&served.url, TOKEN, &[]);
        let want = "\
rmcp 3.11.0 (http://127.0.0.1:PORT/mcp), 5 tools, protocol 2025-11-25; graded by MCP 2025-11-25
built on: unknown
call                     channel  isError  envelope          code              stated  leaks  bytes  branch         expected       ok   spec
unknown tool             result   true     tool_error        UNKNOWN_ACTION    4/4     -      453    fix-and-retry  fix-and-retry  yes  NO (SEP-2145)
get_invoice: missing id  result   true     validation_error  VALIDATION_ERROR  4/4     -      243    fix-and-retry  fix-and-retry  yes  yes
unknown tool: an isError UNKNOWN_ACTION result: SEP-2145's answer (the tool-result option), not 2025-11-25's JSON-RPC error -32602
score: 7/8 points, 87%
";
        assert_eq!(report(&run, &served.url), (0, String::new(), want.to_owned()));
    }

    /// Two URLs are two replicas behind a load balancer: one client each,
    /// the calls round-robin. The replicas here differ on purpose (the first
    /// in `EnvelopeServer`, the second plain rmcp), so each answer shows
    /// which one made it: the unknown tool (call 0) is the first's envelope,
    /// the missing argument (call 1) the second's bare rmcp error.
    #[test]
    fn calls_go_round_robin_over_the_replicas_and_each_row_names_its_replica() {
        let enveloped = serve(|| EnvelopeServer::new(Billing::new()));
        let plain = serve(Billing::new);
        let urls = ["--url", plain.url.as_str()];
        let run = audit(&enveloped.url, TOKEN, &urls);
        let stdout = run
            .stdout
            .replace(&enveloped.url, "http://127.0.0.1:PORT0/mcp")
            .replace(&plain.url, "http://127.0.0.1:PORT1/mcp");
        let want = "\
rmcp 3.11.0 (replica 0 http://127.0.0.1:PORT0/mcp, replica 1 http://127.0.0.1:PORT1/mcp; calls round-robin), 5 tools, protocol 2025-11-25; graded by MCP 2025-11-25
built on: unknown
call                     replica  channel        isError  envelope    code            stated  leaks  bytes  branch         expected       ok   spec
unknown tool             0        jsonrpc-error  -        tool_error  UNKNOWN_ACTION  4/4     -      133    fix-and-retry  fix-and-retry  yes  yes
get_invoice: missing id  1        result         true     -           -               0/4     -      52     stop-and-tell  fix-and-retry  NO   yes
score: 6/8 points, 75%
";
        assert_eq!((run.status, run.stderr.as_str(), stdout.as_str()), (0, "", want));
        // The JSON report: the URLs in their order, and each call's replica.
        let run = audit(&enveloped.url, TOKEN, &["--url", plain.url.as_str(), "--json"]);
        let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        let replicas: Vec<(&serde_json::Value, &serde_json::Value)> = report["calls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|call| (&call["name"], &call["replica"]))
            .collect();
        assert_eq!(
            (&report["urls"], report.get("url"), replicas),
            (
                &serde_json::json!([enveloped.url, plain.url]),
                None,
                vec![
                    (&serde_json::json!("unknown tool"), &serde_json::json!(0)),
                    (&serde_json::json!("get_invoice: missing id"), &serde_json::json!(1)),
                ]
            )
        );
        // One URL: the report as it always was, no call naming a replica.
        let run = audit(&enveloped.url, TOKEN, &["--json"]);
        let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        let named: Vec<&serde_json::Value> = report["calls"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|call| call.get("replica"))
            .collect();
        assert_eq!((report.get("urls"), named), (None, vec![]));
    }

    /// Replicas that are not the same server (name, version or protocol) are
    /// refused: the report would grade them as one.
    #[test]
    fn replicas_that_answer_initialize_differently_are_refused() {
        let billing = serve(|| EnvelopeServer::new(Billing::new()));
        let other = serve(Renamed::default);
        let run = audit(&billing.url, TOKEN, &["--url", other.url.as_str()]);
        let stderr = run
            .stderr
            .replace(&billing.url, "http://127.0.0.1:PORT0/mcp")
            .replace(&other.url, "http://127.0.0.1:PORT1/mcp");
        assert_eq!(
            (run.status, stderr.as_str(), run.stdout.as_str()),
            (
                2,
                "mcp-envelope: the replicas differ: http://127.0.0.1:PORT0/mcp is rmcp 3.11.0, protocol 2025-11-25; http://127.0.0.1:PORT1/mcp is billing-next 2.0.0, protocol 2025-11-25\n",
                ""
            )
        );
    }

    /// A server with no tools that names itself otherwise than rmcp's default.
    #[derive(Default, Clone)]
    struct Renamed;

    impl rmcp::ServerHandler for Renamed {
        fn get_info(&self) -> rmcp::model::ServerConfig {
            let mut info =
                rmcp::model::ServerConfig::new(rmcp::model::ServerCapabilities::builder().enable_tools().build());
            info.server_info.name = "billing-next".into();
            info.server_info.version = "2.0.0".into();
            info
        }
    }

    /// A wrong token: the server's 401, one line, exit status 2, and the
    /// token in no output.
    #[test]
    fn a_refused_token_is_one_line_and_never_printed() {
        let served = serve(Billing::new);
        let run = audit(&served.url, "wrong-token-9c1", &[]);
        let (status, stderr, stdout) = report(&run, &served.url);
        assert_eq!((status, stdout.as_str()), (2, ""));
        assert!(
            stderr.starts_with(&format!("mcp-envelope: {} did not initialize: ", served.url)),
            "{stderr}"
        );
        assert!(
            !stderr.contains("wrong-token-9c1") && stderr.lines().count() == 1,
            "{stderr}"
        );
        let bad = cli(
            &["audit", "--url", &served.url, "--header", "Authorization Bearer x"],
            "",
        );
        assert_eq!(
            (bad.status, bad.stderr.as_str()),
            (2, "mcp-envelope: --header \"Authorization\": expected 'Name: value'\n")
        );
    }
}

#[test]
fn call_runs_any_export_of_one_request_by_its_wit_name() {
    let run = cli(
        &["call", "decide"],
        r#"{"result":{"content":[{"type":"text","text":"error_code: RATE_LIMITED\nwhat_failed: Slow down\nretryable: true\nretry_after: 30 seconds"}],"isError":true}}"#,
    );
    assert_eq!(
        (run.status, run.stdout.as_str(), run.stderr.as_str()),
        (
            0,
            "{\"branch\":\"wait-and-retry\",\"code\":\"RATE_LIMITED\",\"waitSeconds\":30,\"why\":\"transient and retryable\"}\n",
            ""
        )
    );
    let run = cli(&["call", "code-defaults"], r#"{"code":"X","colour":1}"#);
    assert_eq!(
        (run.status, run.stdout.as_str(), run.stderr.as_str()),
        (
            2,
            "",
            "mcp-envelope: stdin: the request: unknown field `colour`, expected `code` or `locale`\n"
        )
    );
    let run = cli(&["call", "decid"], "{}");
    assert_eq!((run.status, run.stdout.as_str()), (2, ""));
    assert!(
        run.stderr.starts_with(
            "mcp-envelope: invalid value 'decid' for '<EXPORT>' [possible values: code-defaults, limits, "
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .ends_with(" (a similar value exists: 'decide'); see 'mcp-envelope call --help'\n"),
        "{}",
        run.stderr
    );
}
