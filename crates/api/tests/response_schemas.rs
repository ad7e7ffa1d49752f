//! Every successful JSON answer of the API is declared with a real schema: a named type
//! with its fields, not a bare `{"type": "object"}` a client can only read as "anything".
//! The UI's types are generated from the document (`ui/openapi.json`), so a bare object
//! there is a type the UI has to write by hand and can get wrong.

use serde_json::Value;
use utoipa::OpenApi;

/// Operations whose answer is deliberately free-form, and why.
const FREE_FORM: [(&str, &str, &str); 1] = [(
    "get",
    "/api/v1/openapi.json",
    "the OpenAPI document itself, described by the OpenAPI specification",
)];

/// `schema` with a `$ref` followed to the component it names.
fn resolved<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(reference) => {
            let name = reference.trim_start_matches("#/components/schemas/");
            &doc["components"]["schemas"][name]
        }
        None => schema,
    }
}

/// Whether `schema` says nothing about its content: `{}` or an object without
/// properties, additional properties or alternatives.
fn bare(schema: &Value) -> bool {
    let Some(fields) = schema.as_object() else {
        return true;
    };
    let described = [
        "properties",
        "additionalProperties",
        "allOf",
        "oneOf",
        "anyOf",
    ]
    .iter()
    .any(|key| fields.contains_key(*key));
    let typed_otherwise = schema["type"].is_string() && schema["type"] != "object";
    !described && !typed_otherwise
}

/// The successful JSON answers of the document whose schema is bare, as
/// `(method, path, status)`.
fn bare_answers(doc: &Value) -> Vec<(String, String, String)> {
    let mut found = Vec::new();
    for (path, item) in doc["paths"].as_object().into_iter().flatten() {
        for (method, operation) in item.as_object().into_iter().flatten() {
            for (status, response) in operation["responses"].as_object().into_iter().flatten() {
                let json = &response["content"]["application/json"]["schema"];
                if status.starts_with('2') && !json.is_null() && bare(resolved(doc, json)) {
                    found.push((method.clone(), path.clone(), status.clone()));
                }
            }
        }
    }
    found
}

#[test]
fn every_successful_answer_has_a_declared_shape() {
    let doc = serde_json::to_value(deskmate_api::openapi::ApiDoc::openapi())
        .unwrap_or_else(|e| panic!("{e}"));
    let bare: Vec<String> = bare_answers(&doc)
        .into_iter()
        .filter(|(method, path, _)| !FREE_FORM.iter().any(|(m, p, _)| m == method && p == path))
        .map(|(method, path, status)| format!("{method} {path} {status}"))
        .collect();
    assert!(
        bare.is_empty(),
        "answers declared as a bare object (derive ToSchema for the answer's type and \
         name it in `body = …`):\n{}",
        bare.join("\n")
    );
}

#[test]
fn a_bare_object_is_found() {
    let doc = serde_json::json!({
        "components": {"schemas": {"Named": {"type": "object", "properties": {"id": {"type": "string"}}}}},
        "paths": {"/a": {"get": {"responses": {
            "200": {"content": {"application/json": {"schema": {"type": "object"}}}},
            "404": {"content": {"application/json": {"schema": {"type": "object"}}}}
        }}, "post": {"responses": {
            "201": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Named"}}}}
        }}}}
    });
    assert_eq!(
        bare_answers(&doc),
        [("get".to_string(), "/a".to_string(), "200".to_string())]
    );
}
