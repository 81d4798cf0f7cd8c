//! An arbitrary error rendered in every form and read back: the same error
//! when the envelope shows it whole, the same bytes when rendered again
//! (mcp_envelope_fuzz::check_tool_error). Input opening with `{` is a spec's
//! JSON (the seeds are the vectors' specs); anything else is made into an
//! error through `arbitrary`. An error the spec refuses (an empty code, a
//! `toolFailure` without a correlation id) is no input for this target.
#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use mcp_envelope::spec;
use mcp_envelope_fuzz::{check_tool_error, text_of, AnyError};

fuzz_target!(|data: &[u8]| {
    let error = if data.first() == Some(&b'{') {
        match spec::from_json(&text_of(data)) {
            Ok(e) => e,
            Err(_) => return,
        }
    } else {
        match AnyError::arbitrary_take_rest(Unstructured::new(data)) {
            Ok(AnyError(e)) => e,
            Err(_) => return,
        }
    };
    if spec::from_json(&spec::to_json_as_stated(&error)).is_err() {
        return;
    }
    check_tool_error(&error);
});
