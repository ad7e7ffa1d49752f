//! The guard's pure steps: resolve the tool (1), read the arguments (2), normalize (3)
//! and validate (4). Capping (9) is in [`crate::cap`]; the stateful steps (policy,
//! confirmation, idempotency, execution, audit) live in the service, which calls this.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

use crate::args::parse_arguments;
use crate::error::SpecError;
use crate::normalize::NormPlan;
use crate::resolve::{canonical_name, unknown_tool};
use crate::result::{Repair, ToolError, ToolResult};
use crate::spec::{ToolSpec, is_valid_imported_tool_id, is_valid_tool_id};
use crate::validate::CompiledSchema;

/// Specs with their validators compiled once, and which tools are enabled. Cloning is
/// cheap (compiled entries are shared): a registry change clones the guard, adds or
/// removes one tool, and swaps the copy in.
#[derive(Debug, Clone)]
pub struct Guard {
    entries: Vec<Entry>,
    by_id: HashMap<String, usize>,
    /// Canonical spellings (see [`canonical_name`]) of every id, for loose matches.
    by_canonical: HashMap<String, usize>,
}

#[derive(Debug, Clone)]
struct Entry {
    compiled: Arc<Compiled>,
    enabled: bool,
}

/// A spec and what was compiled from it.
#[derive(Debug)]
struct Compiled {
    spec: ToolSpec,
    schema: CompiledSchema,
    plan: NormPlan,
}

/// A call that passed steps 1–4: the tool id and the arguments the tool will receive.
#[derive(Debug, Clone, PartialEq)]
pub struct PreparedCall {
    /// The resolved tool id.
    pub tool: String,
    /// Normalized, valid arguments.
    pub arguments: Value,
    /// Every repair made on the way.
    pub repairs: Vec<Repair>,
}

/// A call the guard refused before running anything.
#[derive(Debug, Clone, PartialEq)]
pub struct Rejection {
    /// Why.
    pub error: ToolError,
    /// Structured detail (the list of violations), or null.
    pub data: Value,
    /// Repairs made before the refusal, so the caller sees what was already fixed.
    pub repairs: Vec<Repair>,
}

impl From<Rejection> for ToolResult {
    fn from(rejection: Rejection) -> Self {
        let mut result = ToolResult::failure(rejection.error).with_repairs(rejection.repairs);
        result.data = rejection.data;
        result
    }
}

impl Rejection {
    fn plain(error: ToolError) -> Self {
        Self {
            error,
            data: Value::Null,
            repairs: Vec::new(),
        }
    }
}

impl Guard {
    /// Compiles every spec's schema once. Fails on a bad id, a duplicate, or a bad schema.
    pub fn new(specs: impl IntoIterator<Item = ToolSpec>) -> Result<Self, SpecError> {
        let mut guard = Self {
            entries: Vec::new(),
            by_id: HashMap::new(),
            by_canonical: HashMap::new(),
        };
        for spec in specs {
            guard.insert(spec)?;
        }
        Ok(guard)
    }

    /// Adds a tool (enabled), or replaces the tool with the same id.
    pub fn insert(&mut self, spec: ToolSpec) -> Result<(), SpecError> {
        if !is_valid_tool_id(&spec.id) && !is_valid_imported_tool_id(&spec.id) {
            return Err(SpecError::InvalidId { id: spec.id });
        }
        let schema = CompiledSchema::compile(&spec.id, &spec.parameters)?;
        let plan = NormPlan::compile(&spec.parameters);
        let entry = Entry {
            compiled: Arc::new(Compiled { spec, schema, plan }),
            enabled: true,
        };
        let id = entry.compiled.spec.id.clone();
        match self.by_id.get(&id) {
            Some(&i) => self.entries[i] = entry,
            None => {
                self.by_canonical
                    .insert(canonical_name(&id), self.entries.len());
                self.by_id.insert(id, self.entries.len());
                self.entries.push(entry);
            }
        }
        Ok(())
    }

    /// Removes a tool; returns whether it was there. The others keep their order.
    pub fn remove(&mut self, id: &str) -> bool {
        let Some(index) = self.by_id.remove(id) else {
            return false;
        };
        self.entries.remove(index);
        self.by_canonical.clear();
        self.by_id.clear();
        for (i, entry) in self.entries.iter().enumerate() {
            let id = &entry.compiled.spec.id;
            self.by_canonical.insert(canonical_name(id), i);
            self.by_id.insert(id.clone(), i);
        }
        true
    }

    /// Like [`Guard::insert`] but refuses an id that is already registered.
    pub fn insert_new(&mut self, spec: ToolSpec) -> Result<(), SpecError> {
        if self.by_id.contains_key(&spec.id) {
            return Err(SpecError::DuplicateId { id: spec.id });
        }
        self.insert(spec)
    }

    /// Enables or disables a tool; returns false when the id is unknown.
    pub fn set_enabled(&mut self, id: &str, enabled: bool) -> bool {
        match self.by_id.get(id) {
            Some(&i) => {
                self.entries[i].enabled = enabled;
                true
            }
            None => false,
        }
    }

    /// Every spec, in registration order.
    pub fn specs(&self) -> impl Iterator<Item = &ToolSpec> {
        self.entries.iter().map(|e| &e.compiled.spec)
    }

    /// The spec of an id (exact).
    pub fn spec(&self, id: &str) -> Option<&ToolSpec> {
        self.by_id.get(id).map(|&i| &self.entries[i].compiled.spec)
    }

    /// Whether the tool exists and is enabled.
    pub fn is_enabled(&self, id: &str) -> bool {
        self.by_id.get(id).is_some_and(|&i| self.entries[i].enabled)
    }

    /// Step 1: resolves a name to the index of an enabled tool.
    fn resolve_index(&self, name: &str) -> Result<usize, ToolError> {
        let found = self
            .by_id
            .get(name)
            .or_else(|| self.by_canonical.get(&canonical_name(name)));
        match found {
            Some(&i) if self.entries[i].enabled => Ok(i),
            // A disabled tool exists but must not run; say so instead of "not found".
            Some(&i) => Err(ToolError::permission(format!(
                "tool '{}' is disabled",
                self.entries[i].compiled.spec.id
            ))
            .with_hint(
                "the user has disabled this tool; do not call it, tell the user it is disabled in Tools",
            )),
            None => Err(unknown_tool(
                name,
                self.entries.iter().filter(|e| e.enabled).map(|e| e.compiled.spec.id.as_str()),
            )),
        }
    }

    /// Step 1 alone: the spec of the enabled tool a name means, whatever the arguments.
    pub fn resolve(&self, name: &str) -> Result<&ToolSpec, ToolError> {
        self.resolve_index(name)
            .map(|i| &self.entries[i].compiled.spec)
    }

    /// Steps 1–4: resolve, read, normalize and validate a call.
    pub fn prepare(&self, name: &str, raw_arguments: Value) -> Result<PreparedCall, Rejection> {
        let index = self.resolve_index(name).map_err(Rejection::plain)?;
        let entry = &self.entries[index];
        let (arguments, mut repairs) = parse_arguments(raw_arguments).map_err(Rejection::plain)?;
        let mut arguments = Value::Object(arguments);
        entry.compiled.plan.apply(&mut arguments, &mut repairs);
        if let Err((error, data)) = entry.compiled.schema.validate(&arguments) {
            return Err(Rejection {
                error,
                data,
                repairs,
            });
        }
        Ok(PreparedCall {
            tool: entry.compiled.spec.id.clone(),
            arguments,
            repairs,
        })
    }
}

/// Checks the rules of the tool contract for a registry's specs, beyond what the guard needs to
/// run: a description, type object, `additionalProperties: false`, every property
/// described (recursively). Returns one line per problem.
pub fn lint_spec(spec: &ToolSpec) -> Vec<String> {
    let mut problems = Vec::new();
    if spec.description.trim().len() < 20 {
        problems.push(format!(
            "{}: the description must say what the tool does and when to use it",
            spec.id
        ));
    }
    if spec.name.zh.trim().is_empty() || spec.name.en.trim().is_empty() {
        problems.push(format!("{}: the name needs zh and en", spec.id));
    }
    if spec.parameters.get("type").and_then(Value::as_str) != Some("object") {
        problems.push(format!("{}: parameters must be type object", spec.id));
    }
    if spec.parameters.get("additionalProperties") != Some(&Value::Bool(false)) {
        problems.push(format!(
            "{}: parameters must set additionalProperties: false",
            spec.id
        ));
    }
    lint_properties(&spec.id, &spec.parameters, "", &mut problems);
    if let Err(reason) = crate::validate::check_schema(&spec.parameters) {
        problems.push(format!("{}: {reason}", spec.id));
    }
    problems
}

/// Checks what a person reads about a built-in tool: a summary in both languages and a
/// Chinese description (`x-description-zh`) beside every property's English one. (A tool
/// someone defined, or imported, carries only its own texts and is not held to this.)
pub fn lint_people_text(spec: &ToolSpec) -> Vec<String> {
    let mut problems = Vec::new();
    match &spec.summary {
        Some(s) if !s.zh.trim().is_empty() && !s.en.trim().is_empty() => {}
        _ => problems.push(format!("{}: the summary needs zh and en", spec.id)),
    }
    chinese_descriptions(&spec.id, &spec.parameters, "", &mut problems);
    problems
}

fn chinese_descriptions(id: &str, schema: &Value, path: &str, problems: &mut Vec<String>) {
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (name, prop) in props {
            let here = format!("{path}/{name}");
            let translated = prop
                .get(crate::spec::DESCRIPTION_ZH)
                .and_then(Value::as_str)
                .is_some_and(|d| !d.trim().is_empty());
            if prop.get("description").is_some() && !translated {
                problems.push(format!("{id}: property {here} has no Chinese description"));
            }
            chinese_descriptions(id, prop, &here, problems);
            if let Some(items) = prop.get("items") {
                chinese_descriptions(id, items, &format!("{here}/items"), problems);
            }
        }
    }
}

fn lint_properties(id: &str, schema: &Value, path: &str, problems: &mut Vec<String>) {
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (name, prop) in props {
            let here = format!("{path}/{name}");
            let described = prop
                .get("description")
                .and_then(Value::as_str)
                .is_some_and(|d| !d.trim().is_empty());
            if !described {
                problems.push(format!("{id}: property {here} has no description"));
            }
            lint_properties(id, prop, &here, problems);
            if let Some(items) = prop.get("items") {
                lint_properties(id, items, &format!("{here}/items"), problems);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::result::{ErrorType, RepairRule};
    use crate::spec::{Category, Localized, SideEffect};
    use serde_json::json;

    fn spec(id: &str) -> ToolSpec {
        ToolSpec {
            id: id.into(),
            name: Localized::new("音量", "Volume"),
            summary: None,
            description: "Raises the output volume by a step; changes system state.".into(),
            category: Category::System,
            parameters: json!({"type": "object", "additionalProperties": false,
                "properties": {"step": {"type": "integer", "minimum": 1, "maximum": 50, "description": "percent points"}}}),
            side_effect: SideEffect::Write,
            idempotent: false,
            timeout_ms: 1000,
            compensation: None,
        }
    }

    fn guard() -> Guard {
        Guard::new([spec("increase_volume"), spec("decrease_volume")])
            .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn prepares_repairs_and_validates() {
        let g = guard();
        let call = g
            .prepare("Increase-Volume", json!("{\"step\": \"20\"}"))
            .ok();
        assert_eq!(
            call.as_ref().map(|c| c.arguments.clone()),
            Some(json!({"step": 20}))
        );
        assert_eq!(
            call.map(|c| c.repairs[0].rule),
            Some(RepairRule::NumberFromString)
        );

        let rejected = g.prepare("increase_volume", json!({"step": 100})).err();
        let result = rejected.map(ToolResult::from);
        assert_eq!(
            result.as_ref().and_then(|r| r.error_type),
            Some(ErrorType::Validation)
        );
        assert_eq!(
            result.map(|r| r.data["violations"][0]["path"].clone()),
            Some(json!("/step"))
        );
    }

    #[test]
    fn unknown_and_disabled_tools_never_prepare() {
        let mut g = guard();
        let err = g.prepare("volume_up", json!({})).err().map(|r| r.error);
        assert_eq!(
            err.as_ref().map(|e| e.error_type),
            Some(ErrorType::NotFound)
        );
        assert!(err.is_some_and(|e| e.options.contains(&"increase_volume".to_string())));
        assert!(g.set_enabled("decrease_volume", false));
        let err = g
            .prepare("decrease_volume", json!({}))
            .err()
            .map(|r| r.error.error_type);
        assert_eq!(err, Some(ErrorType::Permission));
    }

    #[test]
    fn bad_specs_are_refused() {
        assert!(matches!(
            Guard::new([spec("Bad-Id")]),
            Err(SpecError::InvalidId { .. })
        ));
        let mut bad = spec("t");
        bad.parameters = json!({"type": "object", "properties": {"a": {"type": 5}}});
        assert!(matches!(
            Guard::new([bad]),
            Err(SpecError::InvalidSchema { .. })
        ));
        let mut g = guard();
        assert!(matches!(
            g.insert_new(spec("increase_volume")),
            Err(SpecError::DuplicateId { .. })
        ));
    }

    #[test]
    fn lint_finds_undescribed_properties() {
        let mut s = spec("t");
        assert!(lint_spec(&s).is_empty(), "{:?}", lint_spec(&s));
        s.parameters = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        assert_eq!(lint_spec(&s).len(), 2);
    }
}
