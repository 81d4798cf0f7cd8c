//! The English catalog: the words the vectors pin byte for byte, and the
//! lines that steer the model in every locale unless a spec asks otherwise.
//! Keep the recovery hints in step with docs/envelope.md's "Per-code
//! defaults" table, and every phrase with docs/locales.md's catalog.

use super::{CodeRecovery, CustomerWords, FieldWords, SizeWords, SteeringWords, TypeWords, Words};

pub(super) const WORDS: Words = Words {
    recovery: CodeRecovery {
        missing_discriminator: "Add the action argument naming one of the available actions, then call the tool again.",
        unknown_action: "Call the tool again with one of the available actions.",
        validation_error: "Fix the arguments named above and call the tool again.",
        missing_required_field: "Add the missing field and call the tool again.",
        internal_error: "Do not retry blindly: the same call is likely to fail again. Tell the user the tool failed, quoting the correlation id if there is one.",
        rate_limited: "Wait for the retry-after period, then make the same call again.",
        unauthorized: "Do not retry. The credentials were rejected; ask the user to sign in again.",
        forbidden: "Do not retry or probe. Tell the user this needs access they do not have.",
        not_found: "Check the identifier: look the item up or list the available ones, then call again with a real one.",
        conflict: "Read the current state again, then decide whether the change still applies.",
        timeout: "Retry once after a short wait; if it times out again, tell the user the service is slow.",
        server_busy: "The server is shedding load: wait, then make the same call again.",
        deprecated: "Use the replacement named in the message and call again.",
        auth_required: "Ask the user to authenticate, then call again. Never pass credentials as tool arguments.",
        handoff_upstream_unavailable: "The upstream server is unavailable: wait, then make the same call again.",
        handoff_namespace_mismatch: "Call the tool under the namespace named in the message.",
        handoff_connecting: "The upstream connection is still being set up: wait a moment, then make the same call again.",
    },

    field: FieldWords {
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
        formats: FORMATS,
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
    },

    customer: CustomerWords {
        sign_in: "You need to sign in to continue.",
        forbidden: "You don't have permission to do this. If you need it, ask an administrator for access.",
        failed: "Something went wrong on our side.",
        failed_under_id: |id| format!("Something went wrong on our side. It was recorded under the reference {id}."),
        rate_limited: "The service is receiving too many requests right now. Please try again in a moment.",
        not_found: "We couldn't find what you asked for.",
        timeout: "The service took too long to respond. Please try again in a moment.",
        conflict: "This was changed by another request at the same time. Please check it and try again.",
        unavailable: "A service we depend on is unavailable right now. Please try again later.",
        rejected: "The request could not be completed.",
        step_up: "This needs access you have not granted yet. Please approve the permissions requested, then try again.",
    },

    steering: SteeringWords {
        validation_recovery: "Fix the fields above and call the tool again. Do not explain the error.",
        cut: " characters cut]",
        repeat: |count| format!("Nothing has changed since the last attempt: the same failure again ({count} in a row)."),
        stop: |count| {
            format!("Stop retrying: this call has failed the same way {count} times in a row and nothing has changed.")
        },
        stop_recovery: "Do not make this call again. Tell the user what failed and that retrying did not help.",
        nothing_found: |what, query| {
            format!(
                "0 {what} found{query}.\nThe query ran and matched nothing: this is a valid answer, not an error. \
                 Do not repeat the same query."
            )
        },
        next_step: "\nNext step: ",
    },
};

/// The English names of the formats and what a valid value of each looks like.
#[rustfmt::skip]
const FORMATS: &[(&[&str], &str, &str)] = &[
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
