//! The `<tool_error>` envelope, with the same parts as `validation/` and
//! `partial/`: the error itself (`model.rs`, `ToolError` and its builder),
//! its JSON spec (`spec.rs`), its size caps (`limits.rs`), its three forms
//! and the `CallToolResult` around them (`render/`), and its readers
//! (`parse/`). `read.rs` tells the three envelope kinds apart when reading back.

pub mod limits;
pub mod model;
pub mod parse;
pub mod render;
pub mod spec;
