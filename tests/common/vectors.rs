//! Loads the shared vectors (`vectors/*.json`) for a Rust runner: expands
//! `$repeat`/`$concat`, names each case `file / group / case`, and sorts the
//! cases into their kinds. Used by the native runner and the wasmtime host.

use super::json::{Json, Object};
use std::path::{Path, PathBuf};

/// One case, expanded.
pub struct Case {
    /// `file / group description / case description`: the test name.
    pub name: String,
    pub kind: CaseKind,
}

pub enum CaseKind {
    /// Render `spec` (or the raw `specText`) in each format of `expected`;
    /// parse each back to `parsed[format]` or the spec.
    Render {
        spec: String,
        expected: Vec<(String, String)>,
        results: Vec<(String, String)>,
        parsed: Object,
    },
    /// The spec text is refused with exactly `error`.
    SpecError { spec: String, error: String },
    /// `input` parses to `parsed` (compact spec JSON), holds no envelope (`None`), or is malformed.
    Parse { input: String, outcome: ParseOutcome },
    /// The JSON-RPC error object.
    Protocol {
        kind: String,
        message: String,
        data: Option<String>,
        expected: String,
    },
    /// A `<validation_error>` from a validation spec (JSON text), or the spec's refusal.
    Validation { spec: String, outcome: ValidationOutcome },
    /// `input` read back as a `<validation_error>`: `parsed` is the envelope JSON.
    ValidationParse { input: String, outcome: ParseOutcome },
    /// `read-envelope`: the text (or a `CallToolResult`, as compact JSON) gives
    /// exactly `Parsed(reading JSON)` or is malformed.
    Read { input: String, outcome: ParseOutcome },
    /// `error-of-result`: the outcome JSON, or `None` for a result that is not an error.
    ErrorOfResult { result: String, outcome: Option<String> },
    /// One JSON-in export (`call`, its kebab-case name) given `input` as compact
    /// JSON: `Ok` is the exact text it returns (a JSON `output` compact, keys as
    /// written), `Err` the exact refusal.
    Call {
        name: String,
        input: String,
        outcome: Result<String, String>,
    },
    /// A repeat ledger made with `stop_after` (`None`: the default), then each
    /// step in order on the same ledger.
    Ledger {
        stop_after: Option<u32>,
        steps: Vec<LedgerStep>,
    },
    /// An idempotency store made with `capacity` and `ttl_seconds` (`None`:
    /// the defaults), then each step in order on the same store.
    Idempotency {
        capacity: Option<u32>,
        ttl_seconds: Option<u32>,
        steps: Vec<IdempotencyStep>,
    },
}

pub enum IdempotencyStep {
    /// `begin(tool, key, arguments, now_ms, format)` gives exactly `answer` (compact JSON).
    Begin {
        tool: String,
        key: String,
        arguments: String,
        now_ms: u64,
        format: String,
        answer: String,
    },
    /// `finish(tool, key, result, now_ms)` gives `Ok(finished)` or `Err(refusal)`;
    /// `result` is `None` for a handler that threw.
    Finish {
        tool: String,
        key: String,
        result: Option<String>,
        now_ms: u64,
        outcome: Result<String, String>,
    },
}

pub enum LedgerStep {
    /// `failure(tool, spec, arguments, format)` gives exactly `result` (compact CallToolResult JSON).
    Failure {
        tool: String,
        spec: String,
        arguments: Option<String>,
        format: String,
        result: String,
    },
    /// `observe(tool, result, arguments)` gives exactly `replaced` (compact
    /// CallToolResult JSON), or `None` to send the result as it is.
    Observe {
        tool: String,
        result: String,
        arguments: Option<String>,
        replaced: Option<String>,
    },
    /// `success(tool)`.
    Success { tool: String },
}

pub enum ValidationOutcome {
    /// The envelope, the `CallToolResult` (if given) and what it parses back to (if given).
    Rendered {
        expected: String,
        result: Option<String>,
        parsed: Option<String>,
    },
    Refused(String),
}

pub enum ParseOutcome {
    Parsed(String),
    NoEnvelope,
    Malformed(String),
}

/// The repository's `vectors/`: beside the library's manifest, one folder up
/// from the other crates' (host-tests/, cli/).
pub fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(if env!("CARGO_PKG_NAME") == "mcp-envelope" {
        "vectors"
    } else {
        "../vectors"
    })
}

/// Every case of every vector file, in file order.
pub fn load_all() -> Vec<Case> {
    let dir = vectors_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json") && !p.ends_with("schema.json"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let file = path.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        // A Rust string cannot hold a lone surrogate: the file's `\ud800`
        // escapes read as U+FFFD, as the core reads them in a spec.
        let text = mcp_envelope::repair_lone_surrogates(&text);
        // Some cases nest deeper than serde_json's default limit of 128, on
        // purpose: the tree is read from raw values, at any depth.
        let groups = Json::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for group in groups.as_array().expect("a vector file is an array of groups") {
            let group_name = group["description"].as_str().unwrap();
            for case in group["cases"].as_array().unwrap() {
                let case = expand(case.clone());
                let name = format!("{file} / {group_name} / {}", case["description"].as_str().unwrap());
                cases.push(Case {
                    name,
                    kind: kind_of(&case),
                });
            }
        }
    }
    cases
}

fn compact(value: &Json) -> String {
    value.to_string()
}

fn by_format(value: &Json) -> Vec<(String, String)> {
    value
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(f, v)| (f.clone(), v.as_str().unwrap().to_owned()))
                .collect()
        })
        .unwrap_or_default()
}

fn idempotency_case(options: &Json, steps: &[Json]) -> CaseKind {
    let text = |step: &Json, key: &str| step[key].as_str().unwrap().to_owned();
    let steps = steps
        .iter()
        .map(|step| match step.get("begin") {
            Some(arguments) => IdempotencyStep::Begin {
                tool: text(step, "tool"),
                key: text(step, "key"),
                arguments: compact(arguments),
                now_ms: step["nowMs"].as_u64().unwrap(),
                format: step.get("format").and_then(Json::as_str).unwrap_or("xml").to_owned(),
                answer: compact(&step["answer"]),
            },
            None => IdempotencyStep::Finish {
                tool: text(step, "tool"),
                key: text(step, "key"),
                result: step.get("finish").filter(|r| !r.is_null()).map(compact),
                now_ms: step["nowMs"].as_u64().unwrap(),
                outcome: match step.get("refused") {
                    Some(why) => Err(why.as_str().unwrap().to_owned()),
                    None => Ok(text(step, "finished")),
                },
            },
        })
        .collect();
    let number = |key: &str| options.get(key).map(|n| n.as_u64().unwrap() as u32);
    CaseKind::Idempotency {
        capacity: number("capacity"),
        ttl_seconds: number("ttlSeconds"),
        steps,
    }
}

/// The case as its kind says (vectors/README.md, "The kinds of case"): a
/// call case names its WIT call, every other case its `kind`.
fn kind_of(case: &Json) -> CaseKind {
    if let Some(name) = case.get("call") {
        let outcome = match (case.get("output"), case.get("refused")) {
            (Some(Json::String(text)), _) => Ok(text.clone()),
            (Some(output), _) => Ok(compact(output)),
            (None, Some(why)) => Err(why.as_str().unwrap().to_owned()),
            (None, None) => panic!("a call case needs output or refused"),
        };
        return CaseKind::Call {
            name: name.as_str().unwrap().to_owned(),
            input: compact(&case["input"]),
            outcome,
        };
    }
    let kind = case["kind"].as_str().expect("a case that is no call has a kind");
    match kind {
        "idempotency" => idempotency_case(
            &case["idempotency"],
            case["steps"].as_array().expect("an idempotency case has steps"),
        ),
        "ledger" => ledger_case(
            &case["ledger"],
            case["steps"].as_array().expect("a ledger case has steps"),
        ),
        "read" => {
            let input = &case["read"];
            // A string is the text; an object a CallToolResult, which crosses as its JSON.
            let input = input.as_str().map(str::to_owned).unwrap_or_else(|| compact(input));
            let outcome = match (case.get("reading"), case.get("malformed")) {
                (Some(reading), _) => ParseOutcome::Parsed(compact(reading)),
                (None, Some(why)) => ParseOutcome::Malformed(why.as_str().unwrap().to_owned()),
                (None, None) => panic!("a read case needs reading or malformed"),
            };
            CaseKind::Read { input, outcome }
        }
        "error-of-result" => CaseKind::ErrorOfResult {
            result: compact(&case["errorOfResult"]),
            outcome: case.get("outcome").filter(|o| !o.is_null()).map(compact),
        },
        "validation" | "validation-error" => {
            let spec = &case["validation"];
            // A string is the spec's raw JSON text (for values a JSON parser would change).
            let spec = spec.as_str().map(str::to_owned).unwrap_or_else(|| compact(spec));
            let outcome = match kind {
                "validation-error" => ValidationOutcome::Refused(case["error"].as_str().unwrap().to_owned()),
                _ => ValidationOutcome::Rendered {
                    expected: case["expected"].as_str().unwrap().to_owned(),
                    result: case.get("result").map(|r| r.as_str().unwrap().to_owned()),
                    parsed: case.get("parsed").map(compact),
                },
            };
            CaseKind::Validation { spec, outcome }
        }
        "validation-parse" => CaseKind::ValidationParse {
            input: case["parseValidation"].as_str().unwrap().to_owned(),
            outcome: parse_outcome(case),
        },
        "spec-error" => CaseKind::SpecError {
            spec: spec_text(case),
            error: case["error"].as_str().unwrap().to_owned(),
        },
        "parse" => CaseKind::Parse {
            input: case["input"].as_str().unwrap().to_owned(),
            outcome: parse_outcome(case),
        },
        "protocol-error" => {
            let p = &case["protocolError"];
            CaseKind::Protocol {
                kind: p["kind"].as_str().unwrap().to_owned(),
                message: p["message"].as_str().unwrap().to_owned(),
                data: p.get("data").map(compact),
                expected: case["expected"].as_str().unwrap().to_owned(),
            }
        }
        "render" => CaseKind::Render {
            spec: spec_text(case),
            expected: by_format(&case["expected"]),
            results: case.get("result").map(by_format).unwrap_or_default(),
            parsed: case
                .get("parsed")
                .and_then(Json::as_object)
                .cloned()
                .unwrap_or_default(),
        },
        other => panic!("a case of a kind this runner does not know: {other:?}"),
    }
}

/// A case's spec as the core reads it: its `specText` as written (for values
/// no host's JSON reader takes, such as 100,000 levels of nesting), else its
/// `spec` compact.
fn spec_text(case: &Json) -> String {
    match case.get("specText") {
        Some(text) => text.as_str().unwrap().to_owned(),
        None => compact(&case["spec"]),
    }
}

fn ledger_case(options: &Json, steps: &[Json]) -> CaseKind {
    let steps = steps
        .iter()
        .map(|step| {
            let tool = step["tool"].as_str().unwrap().to_owned();
            if let Some(result) = step.get("observe") {
                return LedgerStep::Observe {
                    tool,
                    result: compact(result),
                    arguments: step.get("arguments").map(compact),
                    replaced: step.get("replaced").filter(|r| !r.is_null()).map(compact),
                };
            }
            match step.get("failure") {
                Some(spec) => LedgerStep::Failure {
                    tool,
                    spec: compact(spec),
                    arguments: step.get("arguments").map(compact),
                    format: step.get("format").and_then(Json::as_str).unwrap_or("xml").to_owned(),
                    result: compact(&step["result"]),
                },
                None => LedgerStep::Success { tool },
            }
        })
        .collect();
    CaseKind::Ledger {
        stop_after: options.get("stopAfter").map(|n| n.as_u64().unwrap() as u32),
        steps,
    }
}

fn parse_outcome(case: &Json) -> ParseOutcome {
    match (case.get("parsed"), case.get("malformed")) {
        (Some(Json::Null), _) => ParseOutcome::NoEnvelope,
        (Some(spec), _) => ParseOutcome::Parsed(compact(spec)),
        (None, Some(why)) => ParseOutcome::Malformed(why.as_str().unwrap().to_owned()),
        (None, None) => panic!("a parse case needs parsed or malformed"),
    }
}

/// `{"$repeat": x, "count": n}` is x (a string or an array) n times over;
/// `{"$concat": [..]}` joins strings.
pub fn expand(value: Json) -> Json {
    match value {
        Json::Object(mut map) => {
            if let Some(item) = map.remove("$repeat") {
                let count = map["count"].as_u64().unwrap() as usize;
                return match expand(item) {
                    Json::String(s) => Json::String(s.repeat(count)),
                    Json::Array(items) => {
                        Json::Array(items.iter().cloned().cycle().take(items.len() * count).collect())
                    }
                    other => panic!("$repeat takes a string or an array, not {other}"),
                };
            }
            if let Some(parts) = map.remove("$concat") {
                let parts = parts.as_array().unwrap().iter().cloned().map(expand);
                return Json::String(parts.map(|p| p.as_str().unwrap().to_owned()).collect());
            }
            Json::Object(map.into_iter().map(|(k, v)| (k, expand(v))).collect())
        }
        Json::Array(items) => Json::Array(items.into_iter().map(expand).collect()),
        other => other,
    }
}
