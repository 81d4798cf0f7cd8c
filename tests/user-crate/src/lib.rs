//! Ordinary serde code, as a user of mcp-envelope writes it. Each of these
//! breaks when a crate in the build turns on serde_json's
//! `arbitrary_precision` (numbers inside untagged enums, internally tagged
//! enums and `#[serde(flatten)]` arrive as maps) or `preserve_order` (a
//! `Value`'s keys stop being sorted). The library keeps numbers and key order
//! as written without either.

use serde::Deserialize;

/// An untagged enum with a number in it.
#[derive(Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Amount {
    Cents(u64),
    Text(String),
}

/// An internally tagged enum with numbers in it.
#[derive(Debug, PartialEq, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Refund {
    Full { invoice: u64 },
    Partial { invoice: u64, amount: f64 },
}

/// A flattened struct with numbers in it.
#[derive(Debug, PartialEq, Deserialize)]
pub struct Page {
    pub items: Vec<String>,
    #[serde(flatten)]
    pub position: Position,
}

#[derive(Debug, PartialEq, Deserialize)]
pub struct Position {
    pub offset: u32,
    pub limit: u32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;
    use std::process::Command;

    #[test]
    fn an_untagged_enum_reads_a_number() {
        assert_eq!(serde_json::from_str::<Amount>("1250").unwrap(), Amount::Cents(1250));
        assert_eq!(
            serde_json::from_str::<Vec<Amount>>(r#"[7, "all"]"#).unwrap(),
            [Amount::Cents(7), Amount::Text("all".into())]
        );
    }

    #[test]
    fn an_internally_tagged_enum_reads_numbers() {
        assert_eq!(
            serde_json::from_str::<Refund>(r#"{"kind":"partial","invoice":42,"amount":12.5}"#).unwrap(),
            Refund::Partial {
                invoice: 42,
                amount: 12.5
            }
        );
        assert_eq!(
            serde_json::from_str::<Refund>(r#"{"kind":"full","invoice":7}"#).unwrap(),
            Refund::Full { invoice: 7 }
        );
    }

    #[test]
    fn a_flattened_struct_reads_numbers() {
        assert_eq!(
            serde_json::from_str::<Page>(r#"{"items":["a"],"offset":20,"limit":10}"#).unwrap(),
            Page {
                items: vec!["a".into()],
                position: Position { offset: 20, limit: 10 }
            }
        );
    }

    #[test]
    fn a_value_keeps_its_keys_sorted_and_numbers_as_f64() {
        let value: Value = serde_json::from_str(r#"{"zeta":1,"alpha":1.10,"mid":{"b":2,"a":1}}"#).unwrap();
        assert_eq!(value.to_string(), r#"{"alpha":1.1,"mid":{"a":1,"b":2},"zeta":1}"#);
        assert!(value["alpha"].is_f64());
    }

    /// The library beside that code still shows numbers with their written
    /// digits and details in their written order.
    #[test]
    fn the_library_still_keeps_numbers_and_order_as_written() {
        let spec = r#"{"code":"NOT_FOUND","message":"No invoice","details":{"zeta":1.10,"alpha":123456789012345678901234567890,"big":1e400}}"#;
        let error = mcp_envelope::spec::from_json(spec).unwrap();
        let json = mcp_envelope::render_json(&error);
        assert!(
            json.ends_with(r#""details":{"zeta":"1.10","alpha":"123456789012345678901234567890","big":"1e400"}}"#),
            "{json}"
        );
        let xml = mcp_envelope::render_xml(&error);
        assert!(xml.contains(r#"<detail key="zeta">1.10</detail>"#), "{xml}");
    }

    fn cargo_tree(args: &[&str]) -> String {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
        let out = Command::new(cargo)
            .args(["tree", "--locked", "--manifest-path", manifest])
            .args(args)
            .output()
            .expect("cargo tree runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    }

    /// `cargo add mcp-envelope` compiles no command line, runtime or MCP client.
    #[test]
    fn the_tree_holds_no_cli_runtime_or_mcp_client() {
        let packages = cargo_tree(&["-e", "normal,build", "--prefix", "none", "--format", "{p}"]);
        let names: Vec<&str> = packages.lines().filter_map(|l| l.split_whitespace().next()).collect();
        assert!(names.contains(&"mcp-envelope"), "{packages}");
        for unwanted in ["clap", "tokio", "rmcp", "reqwest", "jsonschema"] {
            assert!(!names.contains(&unwanted), "{unwanted} is in the tree:\n{packages}");
        }
    }

    /// serde_json is built with no feature that changes what it does.
    #[test]
    fn serde_json_has_neither_arbitrary_precision_nor_preserve_order() {
        let features = cargo_tree(&["-e", "features", "-i", "serde_json"]);
        assert!(features.contains("serde_json feature \"default\""), "{features}");
        for unwanted in ["arbitrary_precision", "preserve_order"] {
            assert!(!features.contains(unwanted), "serde_json has {unwanted}:\n{features}");
        }
    }
}
