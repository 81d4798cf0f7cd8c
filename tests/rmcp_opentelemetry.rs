//! `EnvelopeServer`'s `tools/call` span as OpenTelemetry exports it
//! (docs/telemetry.md), feature `opentelemetry`: a server exporting its
//! `tracing` spans through `tracing-opentelemetry`, the W3C trace context
//! propagator registered, and the OpenTelemetry SDK's in-memory exporter
//! reading what would be sent. The span continues the trace a client sent in
//! the request's `_meta`, and carries the envelope's code, never its text.

use std::collections::BTreeMap;

use opentelemetry::trace::{SpanKind, Status, TracerProvider as _};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use rmcp::model::RequestMetaObject;
use tracing_subscriber::layer::SubscriberExt;

#[allow(dead_code)]
mod rmcp_server;

const TRACE_ID: &str = "0af7651916cd43dd8448eb211c80319c";
const CLIENT_SPAN_ID: &str = "b7ad6b7169203331";

/// The exported `tools/call` span of one call of `tool` with `arguments` and
/// `_meta`, and the text the model got.
async fn exported(tool: &str, arguments: serde_json::Value, meta: serde_json::Value) -> (SpanData, String) {
    opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
    let exporter = InMemorySpanExporter::default();
    let provider = SdkTracerProvider::builder()
        .with_simple_exporter(exporter.clone())
        .build();
    let layer = tracing_opentelemetry::layer().with_tracer(provider.tracer("billing"));
    let _guard = tracing::subscriber::set_default(tracing_subscriber::registry().with(layer));

    let meta = serde_json::from_value::<RequestMetaObject>(meta).unwrap();
    let text = rmcp_server::call_enveloped(tool, arguments, Some(meta)).await;
    provider.force_flush().unwrap();
    let spans: Vec<SpanData> = exporter
        .get_finished_spans()
        .unwrap()
        .into_iter()
        .filter(|span| span.name.starts_with("tools/call"))
        .collect();
    assert_eq!(spans.len(), 1, "{spans:?}");
    (spans.into_iter().next().unwrap(), text)
}

/// The span's attributes, values as text.
fn attributes(span: &SpanData) -> BTreeMap<String, String> {
    span.attributes
        .iter()
        .map(|kv| (kv.key.to_string(), kv.value.to_string()))
        .collect()
}

#[tokio::test]
async fn a_failure_continues_the_clients_trace_and_carries_the_code_not_the_text() {
    let (span, text) = exported(
        "refund",
        serde_json::json!({"invoice_id": "inv_1", "amount_cents": 500}),
        serde_json::json!({"traceparent": format!("00-{TRACE_ID}-{CLIENT_SPAN_ID}-01"), "tracestate": "vendor=1"}),
    )
    .await;
    let id_at = text.find("err_").expect("a correlation id");
    let correlation_id = &text[id_at..id_at + 16];

    assert_eq!(span.name, "tools/call refund");
    assert_eq!(span.span_kind, SpanKind::Server);
    assert_eq!(span.span_context.trace_id().to_string(), TRACE_ID);
    assert_eq!(span.parent_span_id.to_string(), CLIENT_SPAN_ID);
    assert_eq!(span.span_context.trace_state().header(), "vendor=1");
    assert!(matches!(span.status, Status::Error { .. }), "{:?}", span.status);
    let attributes = attributes(&span);
    let ours: BTreeMap<&str, &str> = attributes
        .iter()
        .filter(|(key, _)| key.starts_with("error.") || key.starts_with("mcp_envelope.") || key.starts_with("gen_ai."))
        .map(|(key, value)| (key.as_str(), value.as_str()))
        .collect();
    assert_eq!(
        ours,
        BTreeMap::from([
            ("error.type", "tool_error"),
            ("gen_ai.operation.name", "execute_tool"),
            ("gen_ai.tool.name", "refund"),
            ("mcp_envelope.error.category", "internal"),
            ("mcp_envelope.error.code", "INTERNAL_ERROR"),
            ("mcp_envelope.error.correlation_id", correlation_id),
            ("mcp_envelope.error.retryable", "false"),
        ])
    );
    // The panic's message (the test server's "password") and the envelope's words are in no attribute.
    assert!(
        !attributes
            .values()
            .any(|value| value.contains("password") || value.contains(' ')),
        "{attributes:?}"
    );
}

#[tokio::test]
async fn a_call_without_a_traceparent_starts_its_own_trace() {
    let (span, _) = exported(
        "get_invoice",
        serde_json::json!({"id": "inv_1"}),
        serde_json::json!({"tracestate": "vendor=1"}),
    )
    .await;
    assert_ne!(span.span_context.trace_id().to_string(), TRACE_ID);
    assert_eq!(span.status, Status::Unset);
    assert!(!attributes(&span).contains_key("error.type"));
}
