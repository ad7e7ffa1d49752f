//! The tool-call evaluator over HTTP: `POST /api/v1/eval` runs a suite on a model (SSE
//! `case` events with `Accept: text/event-stream`, then `done` with the report), and the
//! stored reports at `/api/v1/eval/runs`.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use deskmate_autotest::eval::{self, CaseCategory, EvalOptions, EvalReport, Split};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::AppState;
use crate::answers::Page;
use crate::autotest::{RunRow, RunsQuery, Step, answer, list_runs};
use crate::error::AppError;
use crate::extract::{ApiJson, ApiQuery};

/// What to evaluate.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EvalBody {
    /// The LLM model id.
    model_id: String,
    /// A suite as JSONL text (docs/EVAL.md); the bundled suite when absent.
    suite: Option<String>,
    /// Only these categories.
    #[schema(value_type = Option<Vec<String>>)]
    categories: Option<Vec<CaseCategory>>,
    /// Only the cases of these parts of the suite (`dev`, `heldout`); all when absent.
    #[schema(value_type = Option<Vec<String>>)]
    splits: Option<Vec<Split>>,
    /// At most this many cases (1–1000).
    limit: Option<usize>,
    /// Longest turn per case in seconds (1–600, default 180).
    case_timeout_s: Option<u64>,
    /// Most tokens per model answer (16–4096, default 256).
    max_tokens: Option<i64>,
    /// Offer every enabled tool in every case, as a chat turn does (default false).
    all_tools: Option<bool>,
}

/// A finished evaluation and its report as markdown.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct EvalAnswer {
    /// The evaluation.
    #[serde(flatten)]
    pub report: EvalReport,
    /// The report as markdown: the metrics, then a table per category.
    pub markdown: String,
}

fn field_error(path: &str, message: &str) -> AppError {
    AppError::Invalid(vec![deskmate_service::error::FieldError {
        path: path.into(),
        message: message.into(),
        hint: "see docs/EVAL.md for the suite format and the options".into(),
    }])
}

/// `POST /api/v1/eval`: runs the suite; the report is stored (also when the client left).
#[utoipa::path(post, path = "/api/v1/eval", tag = "eval", request_body = EvalBody, responses((status = 200, description = "EvalReport {id, model, suite, started_at, duration_ms, metrics, by_category, by_split, results, markdown}; SSE case/done with Accept: text/event-stream", body = EvalAnswer), (status = 404, description = "LLM Model not found"), (status = 422, description = "Invalid suite or options")))]
pub async fn run(
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<EvalBody>,
) -> Result<Response, AppError> {
    state
        .deskmate
        .model_record::<deskmate_service::models::LlmModel>(Some(&body.model_id))?;
    let suite = match &body.suite {
        Some(text) => eval::parse_suite("request", text),
        None => eval::bundled(),
    }
    .map_err(|e| field_error("/suite", &e.to_string()))?;
    let mut options = EvalOptions {
        categories: body.categories.unwrap_or_default(),
        splits: body.splits.unwrap_or_default(),
        limit: body.limit,
        every_tool: body.all_tools.unwrap_or(false),
        ..EvalOptions::default()
    };
    if let Some(limit) = body.limit
        && !(1..=1000).contains(&limit)
    {
        return Err(field_error("/limit", "must be 1-1000"));
    }
    if let Some(seconds) = body.case_timeout_s {
        if !(1..=600).contains(&seconds) {
            return Err(field_error("/case_timeout_s", "must be 1-600"));
        }
        options.case_timeout = std::time::Duration::from_secs(seconds);
    }
    if let Some(tokens) = body.max_tokens {
        if !(16..=4096).contains(&tokens) {
            return Err(field_error("/max_tokens", "must be 16-4096"));
        }
        options.max_tokens = tokens;
    }
    if eval::select(&suite, &options).is_empty() {
        return Err(field_error(
            "/categories",
            "no case of the suite is in these categories and parts",
        ));
    }
    let deskmate = state.deskmate.clone();
    let model_id = body.model_id;
    answer(&headers, "case", move |tx| async move {
        let report = eval::evaluate(&deskmate, &model_id, &suite, &options, |result, i, n| {
            let _ = tx.send(Step::Item(
                json!({"index": i, "total": n, "result": result}),
            ));
        })
        .await
        .map(|report| EvalAnswer {
            markdown: report.markdown(),
            report,
        });
        let _ = tx.send(Step::Done(report));
    })
    .await
}

/// `GET /api/v1/eval/runs`: stored evaluations, newest first, with their model and metrics.
#[utoipa::path(get, path = "/api/v1/eval/runs", tag = "eval", params(RunsQuery), responses((status = 200, description = "One page of the stored evaluations, newest first", body = Page<RunRow>)))]
pub async fn runs(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<RunsQuery>,
) -> Result<Json<Page<RunRow>>, AppError> {
    list_runs(&state, &query, deskmate_store::Store::list_eval_runs)
}

/// How to show a report.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ReportQuery {
    /// `json` (default) or `markdown`.
    format: Option<String>,
}

/// `GET /api/v1/eval/runs/{id}`: one stored report, as JSON or as markdown.
#[utoipa::path(get, path = "/api/v1/eval/runs/{id}", tag = "eval", params(("id" = String, Path, description = "Evaluation id"), ReportQuery), responses((status = 200, description = "The report, or text/markdown with format=markdown", content((EvalAnswer = "application/json"), (String = "text/markdown"))), (status = 404, description = "Evaluation not found")))]
pub async fn run_detail(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiQuery(query): ApiQuery<ReportQuery>,
) -> Result<Response, AppError> {
    let store = state
        .deskmate
        .store()
        .ok_or_else(|| AppError::Internal("no database".into()))?;
    let run = store
        .autotest_run(&id)
        .map_err(|e| AppError::Internal(e.to_string()))?
        .filter(|r| r.kind == "eval")
        .ok_or_else(|| AppError::NotFound("Evaluation not found".into()))?;
    match query.format.as_deref() {
        None | Some("json") => Ok(Json(run.result).into_response()),
        Some("markdown") => Ok((
            [(header::CONTENT_TYPE, "text/markdown; charset=utf-8")],
            run.result["markdown"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
        )
            .into_response()),
        Some(other) => Err(AppError::BadRequest(format!(
            "format must be json or markdown, not '{other}'"
        ))),
    }
}
