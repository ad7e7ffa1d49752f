//! Deskmate's tool contracts and the guard. No I/O happens in this crate.
//!
//! - [`ToolSpec`] says what a tool is: id, zh/en name, description, category, a JSON
//!   Schema 2020-12 for its parameters, side effect, idempotency, timeout, compensation.
//! - [`ToolResult`] is the one result shape every surface sees, and
//!   [`ToolResult::to_llm_text`] renders it for a model.
//! - [`Guard`] runs the pure guard steps — resolve the tool, read the arguments,
//!   [`normalize`](normalize::normalize) them, validate them with a compiled validator —
//!   and [`cap`](cap::cap) keeps results small.
//!
//! ```
//! use deskmate_core::{Category, Guard, Localized, SideEffect, ToolSpec};
//! use serde_json::json;
//!
//! let spec = ToolSpec {
//!     id: "describe_dataset".into(),
//!     name: Localized::new("描述数据集", "Describe dataset"),
//!     summary: None,
//!     description: "Rows, columns and types of a dataset; read-only.".into(),
//!     category: Category::Query,
//!     parameters: json!({"type": "object", "additionalProperties": false, "required": ["dataset"],
//!         "properties": {"dataset": {"type": "string", "enum": ["adsl"],
//!             "x-strip-suffixes": [".csv"], "description": "dataset name"}}}),
//!     side_effect: SideEffect::Read,
//!     idempotent: true,
//!     timeout_ms: 5_000,
//!     compensation: None,
//! };
//! let guard = Guard::new([spec]).unwrap();
//! let call = guard.prepare("describe_dataset", json!({"dataset": " ADSL.csv "})).unwrap();
//! assert_eq!(call.arguments, json!({"dataset": "adsl"}));
//! assert_eq!(call.repairs.len(), 3); // trim, strip suffix, enum case
//! ```

pub mod args;
pub mod canonical;
pub mod cap;
pub mod error;
pub mod guard;
pub mod listed;
pub mod mask;
pub mod normalize;
pub mod params;
pub mod policy;
pub mod resolve;
pub mod result;
pub mod schema_check;
pub mod spec;
pub mod validate;

pub use canonical::canonical_json;
pub use cap::{CapLimits, Capped, cap};
pub use error::SpecError;
pub use guard::{Guard, PreparedCall, Rejection, lint_people_text, lint_spec};
pub use params::{JsonSchema, read_args, schema_for};
pub use policy::{Decision, Policy};
pub use result::{ErrorType, Repair, RepairRule, ToolError, ToolResult};
pub use spec::{Category, Compensation, Localized, SideEffect, ToolDisplay, ToolSpec};
