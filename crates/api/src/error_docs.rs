//! The error answers every operation can give, declared in the OpenAPI document.
//!
//! Some errors come from the router and the extractors, not from a handler: a foreign
//! `Host` or `Origin` (403), a missing token (401), a body that is not JSON (400, 415),
//! too large (413) or breaks the rules (422), a path whose id names nothing (404). They
//! are the same for every operation of a kind, so they are added here to each operation
//! that can answer them, with the [`ErrorBody`] they carry; a status a handler declares
//! itself keeps its own description. (The `ErrorBody` schema is a component of the
//! document: `ApiDoc` lists it.)

use utoipa::Modify;
use utoipa::openapi::path::{Operation, ParameterIn};
use utoipa::openapi::security::SecurityRequirement;
use utoipa::openapi::{Content, OpenApi, Ref, RefOr, Response};

use crate::error::ErrorBody;

/// Adds the error answers to every operation (see the module docs).
pub(crate) struct ErrorResponses;

impl Modify for ErrorResponses {
    fn modify(&self, openapi: &mut OpenApi) {
        operations(openapi).for_each(declare);
    }
}

/// Every operation of the document, to change.
pub(crate) fn operations(openapi: &mut OpenApi) -> impl Iterator<Item = &mut Operation> {
    openapi.paths.paths.values_mut().flat_map(|item| {
        [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.patch,
        ]
        .into_iter()
        .flatten()
    })
}

/// The statuses `operation` can answer without its handler, by what it takes.
fn declare(operation: &mut Operation) {
    let parameters = operation.parameters.as_deref().unwrap_or_default();
    let in_path = parameters
        .iter()
        .any(|p| p.parameter_in == ParameterIn::Path);
    let in_query = parameters
        .iter()
        .any(|p| p.parameter_in == ParameterIn::Query);
    let body = operation.request_body.is_some();
    let public = operation
        .security
        .as_ref()
        .is_some_and(|s| s.iter().all(|r| *r == SecurityRequirement::default()));
    let mut statuses = vec![(
        "403",
        "Refused: a Host or Origin that is not this machine's loopback address",
    )];
    if !public {
        statuses.push(("401", "Missing or invalid bearer token"));
    }
    if body || in_query {
        statuses.push((
            "400",
            "The request could not be read (malformed JSON, or a query value of the wrong type)",
        ));
    }
    if in_path {
        statuses.push(("404", "Nothing with this id"));
    }
    if body {
        statuses.push(("413", "The body is over 1 MiB"));
        statuses.push(("415", "The body is not sent as application/json"));
        statuses.push((
            "422",
            "Valid JSON that breaks the rules: one entry per problem in `errors`",
        ));
    }
    for (status, description) in statuses {
        operation
            .responses
            .responses
            .entry(status.to_string())
            .or_insert_with(|| error_response(description));
    }
    // A status the handler declared with a bare object gets the error body too.
    for (status, response) in &mut operation.responses.responses {
        if let RefOr::T(response) = response
            && (status.starts_with('4') || status.starts_with('5'))
        {
            response.content.insert(
                "application/json".to_string(),
                Content::new(Some(error_body())),
            );
        }
    }
}

fn error_body() -> RefOr<utoipa::openapi::Schema> {
    RefOr::Ref(Ref::from_schema_name(
        <ErrorBody as utoipa::ToSchema>::name(),
    ))
}

fn error_response(description: &str) -> RefOr<Response> {
    RefOr::T(
        utoipa::openapi::ResponseBuilder::new()
            .description(description)
            .content("application/json", Content::new(Some(error_body())))
            .build(),
    )
}
