//! `GET /api/v1/openapi.json`: the OpenAPI 3.1 document of what this router serves,
//! generated from the handlers' annotations.

use axum::Json;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::error_docs::ErrorResponses;

use crate::{
    approvals, audit, autotest, chat, conversation_export, conversations, devices, eval, events,
    kb, mcp_servers, models, prompts, resources, schedules, secrets, settings, tools, voice,
};

/// The document.
#[derive(Debug, OpenApi)]
#[openapi(
    info(title = "Deskmate API", version = "1", description = "Tools, resources, audit, prompts and the knowledge base of a Deskmate instance. Bearer token on everything but /api/v1/tools/health."),
    paths(
        tools::list, tools::detail, tools::health, tools::call,
        resources::list, resources::detail, resources::create, resources::update, resources::delete,
        mcp_servers::list, mcp_servers::detail, mcp_servers::create, mcp_servers::update, mcp_servers::delete, mcp_servers::import, mcp_servers::approve,
        audit::list, prompts::list, prompts::answer, approvals::list, approvals::revoke,
        kb::list, kb::create, kb::detail, kb::delete, kb::import, kb::search,
        secrets::list, secrets::set, secrets::delete,
        settings::list, settings::set, chat::chat, conversations::list, conversations::detail, conversations::rename, conversations::delete, conversations::show_branch, conversation_export::export, conversation_export::import, devices::camera_frame, events::events,
        voice::start, voice::stop, voice::cancel,
        autotest::run, autotest::llm, autotest::asr, autotest::runs, autotest::run_detail, autotest::compare, autotest::test_message,
        eval::run, eval::runs, eval::run_detail,
        schedules::list, schedules::create, schedules::detail, schedules::update, schedules::delete, schedules::runs,
        models::list_llm, models::create_llm, models::get_llm, models::update_llm, models::delete_llm,
        models::list_files,
        models::list_asr, models::create_asr, models::get_asr, models::update_asr, models::delete_asr,
        document
    ),
    components(schemas(crate::error::ErrorBody)),
    modifiers(&BearerToken, &ErrorResponses, &OperationIds),
    security(("bearer" = []))
)]
pub struct ApiDoc;

struct BearerToken;

/// Makes every `operationId` unique (clients generate a function per operation): the
/// handler's name, which repeats across modules (`list`, `detail`…), prefixed with the
/// operation's tag: `knowledge_list`, `mcp_list`.
struct OperationIds;

impl Modify for OperationIds {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for operation in crate::error_docs::operations(openapi) {
            let tag = operation
                .tags
                .as_ref()
                .and_then(|t| t.first())
                .cloned()
                .unwrap_or_default();
            if let Some(id) = &mut operation.operation_id
                && !tag.is_empty()
                && !id.starts_with(&format!("{tag}_"))
            {
                *id = format!("{tag}_{id}");
            }
        }
    }
}

impl Modify for BearerToken {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
    }
}

/// `GET /api/v1/openapi.json`.
#[utoipa::path(get, path = "/api/v1/openapi.json", tag = "meta", responses((status = 200, description = "This document", body = Object)))]
pub async fn document() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}
