//! Any bytes read back in every way a host reads them: `parse`,
//! `read_envelope`, `error_of_result`, the validation and partial readers.
//! None may panic, and they agree: `parse` reads the tool error
//! `read_envelope` reads, `error_of_result` throws what it reads. Whatever
//! reads as a tool error or a partial result is a
//! spec the renderer accepts, and renders to an envelope that reads back
//! and renders again to the same bytes (mcp_envelope_fuzz::check_tool_error).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_envelope::partial::parse_partial;
use mcp_envelope::validation::{envelope_to_json, parse_validation};
use mcp_envelope::{error_of_result, parse, read_envelope, ParseError, Reading};
use mcp_envelope_fuzz::{check_partial, check_tool_error, text_of};

fuzz_target!(|data: &[u8]| {
    let text = text_of(data);
    let parsed = parse(&text);
    if let Ok(e) = &parsed {
        check_tool_error(e);
    }
    match read_envelope(&text) {
        Ok(Reading::ToolError(e)) => {
            // The earliest envelope is a tool error: `parse` finds the same one.
            assert!(parsed.as_ref() == Ok(&e), "parse gives {parsed:?}, read_envelope {e:?}");
            check_tool_error(&e);
        }
        Ok(Reading::PartialResult(p)) => check_partial(&p),
        Ok(Reading::ValidationError(v)) => {
            envelope_to_json(&v);
        }
        Ok(Reading::None) => assert!(
            !matches!(parsed, Ok(_)),
            "read_envelope holds no envelope where parse reads {parsed:?}"
        ),
        Ok(other) => panic!("a reading of a kind this target does not know: {other:?}"),
        Err(ParseError::NoEnvelope) => panic!("read_envelope gives NoEnvelope, not Reading::None"),
        Err(ParseError::Malformed(_)) => {}
    }
    if let Ok(v) = parse_validation(&text) {
        envelope_to_json(&v);
    }
    if let Ok(p) = parse_partial(&text) {
        check_partial(&p);
    }
    // The throw helper reads a result as read_envelope does.
    if let Ok(Some(outcome)) = error_of_result(&text) {
        match read_envelope(&text) {
            Ok(Reading::None) => assert!(
                outcome.reading == Reading::None && outcome.malformed.is_none(),
                "error_of_result gives {outcome:?} where read_envelope holds no envelope"
            ),
            Ok(reading) => assert!(
                outcome.reading == reading,
                "error_of_result gives {outcome:?}, read_envelope {reading:?}"
            ),
            Err(why) => assert!(
                outcome.malformed == Some(why.to_string()),
                "error_of_result gives {outcome:?}, read_envelope {why}"
            ),
        }
        outcome.to_json();
    }
});
