//! The `tools/call` span of `EnvelopeServer` (docs/telemetry.md): OpenTelemetry's
//! names as `tracing` fields (`otel.name`, `otel.kind`, `otel.status_code`),
//! and on a failure `error.type` and the envelope's code, category,
//! retryability and correlation id as the core gives them, never its text. A
//! subscriber of the test's own records every span's fields.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

#[allow(dead_code)]
mod rmcp_server;

/// Every span's fields by name, values as text, in the order the spans opened.
#[derive(Clone, Default)]
struct Spans(Arc<Mutex<Vec<BTreeMap<String, String>>>>);

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
    fn record_bool(&mut self, field: &Field, value: bool) {
        self.0.insert(field.name().to_owned(), value.to_string());
    }
}

impl Subscriber for Spans {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        metadata.target() == "mcp_envelope"
    }
    fn new_span(&self, span: &Attributes<'_>) -> Id {
        let mut spans = self.0.lock().unwrap();
        let mut fields = BTreeMap::from([("name".to_owned(), span.metadata().name().to_owned())]);
        span.record(&mut Fields(&mut fields));
        spans.push(fields);
        Id::from_u64(spans.len() as u64)
    }
    fn record(&self, span: &Id, values: &Record<'_>) {
        let mut spans = self.0.lock().unwrap();
        let at = usize::try_from(span.into_u64()).unwrap() - 1;
        values.record(&mut Fields(&mut spans[at]));
    }
    fn record_follows_from(&self, _span: &Id, _follows: &Id) {}
    fn event(&self, _event: &Event<'_>) {}
    fn enter(&self, _span: &Id) {}
    fn exit(&self, _span: &Id) {}
}

/// The fields of the `tools/call` span of a call of `tool` with `arguments`, and the text the model got.
async fn span_of(tool: &str, arguments: serde_json::Value) -> (BTreeMap<String, String>, String) {
    let spans = Spans::default();
    let _guard = tracing::subscriber::set_default(spans.clone());
    let text = rmcp_server::call_enveloped(tool, arguments, None).await;
    let recorded = spans.0.lock().unwrap().clone();
    let calls: Vec<_> = recorded.into_iter().filter(|s| s["name"] == "tools/call").collect();
    assert_eq!(calls.len(), 1, "{calls:?}");
    (calls.into_iter().next().unwrap(), text)
}

fn ours(span: &BTreeMap<String, String>) -> BTreeMap<&str, &str> {
    span.iter()
        .filter(|(k, _)| k.starts_with("error.") || k.starts_with("mcp_envelope.") || k.starts_with("otel."))
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}

#[tokio::test]
async fn a_panic_is_internal_error_on_the_span_with_the_correlation_id_and_no_text() {
    let (span, text) = span_of(
        "refund",
        serde_json::json!({"invoice_id": "inv_1", "amount_cents": 500}),
    )
    .await;
    let id_at = text.find("err_").expect("a correlation id");
    let correlation_id = &text[id_at..id_at + 16];
    assert_eq!(
        ours(&span),
        BTreeMap::from([
            ("error.type", "tool_error"),
            ("mcp_envelope.error.category", "internal"),
            ("mcp_envelope.error.code", "INTERNAL_ERROR"),
            ("mcp_envelope.error.correlation_id", correlation_id),
            ("mcp_envelope.error.retryable", "false"),
            ("otel.kind", "server"),
            ("otel.name", "tools/call refund"),
            ("otel.status_code", "ERROR"),
        ])
    );
    assert_eq!(span["gen_ai.tool.name"], "refund");
    assert!(!span.values().any(|v| v.contains("password")), "{span:?}");
}

#[tokio::test]
async fn a_validation_error_and_a_success_on_the_span() {
    let (failed, _) = span_of("get_invoice", serde_json::json!({"id": 42})).await;
    assert_eq!(failed["mcp_envelope.error.code"], "VALIDATION_ERROR");
    assert_eq!(failed["otel.status_code"], "ERROR");
    let (ok, _) = span_of("get_invoice", serde_json::json!({"id": "inv_1"})).await;
    assert_eq!(
        ours(&ok),
        BTreeMap::from([("otel.kind", "server"), ("otel.name", "tools/call get_invoice")])
    );
}

#[tokio::test]
async fn an_unknown_tool_has_its_json_rpc_code_as_error_type() {
    let (span, _) = span_of("refund_orders", serde_json::json!({})).await;
    assert_eq!(
        (span["error.type"].as_str(), span["otel.status_code"].as_str()),
        ("-32602", "ERROR")
    );
}
