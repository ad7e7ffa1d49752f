//! The API contract's autotest endpoints, plus run history. With `Accept: text/event-stream` a
//! run streams each check as it finishes (`check` events) and then the result (`done`).

use std::convert::Infallible;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use deskmate_autotest::{
    Autotest, AutotestResult, Comparison, ModelUnderTest, RunRequest, Scope, TestCase, TestMessage,
};
use deskmate_service::ServiceError;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::AppState;
use crate::answers::Page;
use crate::error::AppError;
use crate::extract::ApiQuery;

/// The API contract's query parameters of a full run.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RunQuery {
    /// LLM model id (default: the default model).
    llm_model_id: Option<String>,
    /// ASR model id (default: the default model).
    asr_model_id: Option<String>,
    /// Check the LLM (default true).
    test_llm: Option<bool>,
    /// Check the ASR (default true).
    test_asr: Option<bool>,
    /// Check the devices (default true).
    test_devices: Option<bool>,
}

/// What a long-running job reports: items as they finish, then its result.
pub(crate) enum Step<C, R> {
    /// How many items will come (sent first, when known).
    Plan(usize),
    /// One item (a check, an evaluated case).
    Item(C),
    /// The result.
    Done(Result<R, ServiceError>),
}

fn wants_stream(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("text/event-stream"))
}

/// Runs `work` and answers its result as JSON, or SSE when the client asks for it: a
/// `plan` event with the number of items when known, an `item` event per item, then
/// `done` (or `error`). The work goes on if the client leaves.
pub(crate) async fn answer<C, R, F, Fut>(
    headers: &HeaderMap,
    item: &'static str,
    work: F,
) -> Result<Response, AppError>
where
    C: serde::Serialize + Send + 'static,
    R: serde::Serialize + Send + 'static,
    F: FnOnce(mpsc::UnboundedSender<Step<C, R>>) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let (tx, mut rx) = mpsc::unbounded_channel::<Step<C, R>>();
    tokio::spawn(work(tx));
    if !wants_stream(headers) {
        while let Some(step) = rx.recv().await {
            if let Step::Done(result) = step {
                return Ok(Json(result?).into_response());
            }
        }
        return Err(AppError::Internal(
            "the run stopped without a result".into(),
        ));
    }
    let stream = futures_util::stream::unfold(rx, move |mut rx| async move {
        let step = rx.recv().await?;
        let event = match step {
            Step::Plan(total) => Event::default()
                .event("plan")
                .json_data(json!({ "total": total })),
            Step::Item(value) => Event::default().event(item).json_data(&value),
            Step::Done(Ok(result)) => Event::default().event("done").json_data(&result),
            Step::Done(Err(e)) => Event::default()
                .event("error")
                .json_data(json!({"detail": e.to_string()})),
        }
        .unwrap_or_else(|_| Event::default().event("error").data("{}"));
        Some((Ok::<_, Infallible>(event), rx))
    });
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response())
}

fn reporter(
    tx: &mpsc::UnboundedSender<Step<TestCase, AutotestResult>>,
) -> impl FnMut(&TestCase) + Send + '_ {
    move |case| {
        let _ = tx.send(Step::Item(case.clone()));
    }
}

/// `POST /api/v1/tools/autotest`: the LLM and ASR checks as asked, then every tool.
#[utoipa::path(post, path = "/api/v1/tools/autotest", tag = "autotest", params(RunQuery), responses((status = 200, description = "AutotestResult {id, started_at, duration_ms, tests, summary}; SSE check/done with Accept: text/event-stream", body = AutotestResult)))]
pub async fn run(
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiQuery(query): ApiQuery<RunQuery>,
) -> Result<Response, AppError> {
    let devices = state
        .devices
        .clone()
        .filter(|_| query.test_devices.unwrap_or(true));
    let autotest = Autotest::new(state.agent.clone()).with_devices(devices);
    let request = RunRequest {
        llm_model_id: query.llm_model_id,
        asr_model_id: query.asr_model_id,
        test_llm: query.test_llm.unwrap_or(true),
        test_asr: query.test_asr.unwrap_or(true),
    };
    answer(&headers, "check", move |tx| async move {
        let _ = tx.send(Step::Plan(autotest.planned(&request)));
        let result = autotest.run(&request, &mut reporter(&tx)).await;
        let _ = tx.send(Step::Done(result));
    })
    .await
}

/// `POST /api/v1/tools/autotest/llm/{model_id}`.
#[utoipa::path(post, path = "/api/v1/tools/autotest/llm/{model_id}", tag = "autotest", params(("model_id" = String, Path, description = "LLM model id")), responses((status = 200, description = "The LLM checks", body = AutotestResult)))]
pub async fn llm(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(model_id): Path<String>,
) -> Result<Response, AppError> {
    model(state, &headers, ModelUnderTest::Llm, model_id).await
}

/// `POST /api/v1/tools/autotest/asr/{model_id}`.
#[utoipa::path(post, path = "/api/v1/tools/autotest/asr/{model_id}", tag = "autotest", params(("model_id" = String, Path, description = "ASR model id")), responses((status = 200, description = "The ASR checks", body = AutotestResult)))]
pub async fn asr(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(model_id): Path<String>,
) -> Result<Response, AppError> {
    model(state, &headers, ModelUnderTest::Asr, model_id).await
}

/// Checks one model, its checks streamed as they finish (see [`answer`]).
async fn model(
    state: AppState,
    headers: &HeaderMap,
    kind: ModelUnderTest,
    model_id: String,
) -> Result<Response, AppError> {
    let autotest = Autotest::new(state.agent.clone());
    answer(headers, "check", move |tx| async move {
        let result = autotest
            .model(kind, Some(&model_id), &mut reporter(&tx))
            .await;
        let _ = tx.send(Step::Done(result));
    })
    .await
}

/// The API contract's test-message parameters.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TestMessageQuery {
    /// LLM model id.
    llm_model_id: String,
    /// The message (default "Hello, this is a test message.").
    message: Option<String>,
}

/// `POST /api/v1/tools/test-message`.
#[utoipa::path(post, path = "/api/v1/tools/test-message", tag = "autotest", params(TestMessageQuery), responses((status = 200, description = "The model's answer", body = TestMessage), (status = 404, description = "LLM Model not found")))]
pub async fn test_message(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<TestMessageQuery>,
) -> Result<Json<TestMessage>, AppError> {
    let message = query
        .message
        .filter(|m| !m.trim().is_empty())
        .unwrap_or_else(|| "Hello, this is a test message.".into());
    if message.chars().count() > 4000 {
        return Err(AppError::BadRequest(
            "message is limited to 4000 characters".into(),
        ));
    }
    let reply = Autotest::new(state.agent.clone())
        .test_message(&query.llm_model_id, &message)
        .await?;
    Ok(Json(reply))
}

/// Paging of the run history.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RunsQuery {
    /// 1-based page (default 1).
    page: Option<u32>,
    /// Runs per page (default 20, at most 200).
    limit: Option<u32>,
}

/// `GET /api/v1/tools/autotest/runs`: stored runs, newest first.
#[utoipa::path(get, path = "/api/v1/tools/autotest/runs", tag = "autotest", params(RunsQuery), responses((status = 200, description = "One page of the stored runs, newest first", body = Page<RunRow>)))]
pub async fn runs(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<RunsQuery>,
) -> Result<Json<Page<RunRow>>, AppError> {
    list_runs(&state, &query, deskmate_store::Store::list_autotest_runs)
}

/// A stored run (an autotest or an evaluation) in the history, with its counts. The
/// parts read from the stored result are as stored: a run stored before a field was
/// kept has `null` there.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct RunRow {
    /// Run id.
    pub id: String,
    /// `autotest`, `llm`, `asr` or `eval`.
    pub kind: String,
    /// Unix seconds.
    pub started_at: f64,
    /// Total time.
    pub duration_ms: i64,
    /// Checks or cases passed.
    pub passed: i64,
    /// Checks or cases failed.
    pub failed: i64,
    /// Checks skipped.
    pub skipped: u64,
    /// An autotest's groups of checks (not on an evaluation).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Scope>, nullable = false)]
    pub scope: Option<Value>,
    /// An evaluation's model.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<deskmate_autotest::eval::EvalModel>, nullable = false)]
    pub model: Option<Value>,
    /// An evaluation's suite name.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>, nullable = false)]
    pub suite: Option<Value>,
    /// An evaluation's metrics.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<deskmate_autotest::eval::Metrics>, nullable = false)]
    pub metrics: Option<Value>,
}

/// A page of stored runs (autotest or evaluation), each with its counts.
pub(crate) fn list_runs(
    state: &AppState,
    query: &RunsQuery,
    list: impl Fn(
        &deskmate_store::Store,
        u32,
        u32,
    )
        -> Result<(u64, Vec<deskmate_store::autotest::AutotestRun>), deskmate_store::Error>,
) -> Result<Json<Page<RunRow>>, AppError> {
    let store = state
        .deskmate
        .store()
        .ok_or_else(|| AppError::Internal("no database".into()))?;
    let (page, limit) = (
        query.page.unwrap_or(1).max(1),
        query.limit.unwrap_or(20).clamp(1, 200),
    );
    let (total, list) = list(store, page, limit).map_err(|e| AppError::Internal(e.to_string()))?;
    let list = list
        .iter()
        .map(|r| {
            let eval = r.kind == "eval";
            // An evaluation's model and score, so a history table needs no second request.
            let of_eval = |key: &str| eval.then(|| r.result[key].clone());
            RunRow {
                id: r.id.clone(),
                kind: r.kind.clone(),
                started_at: r.started_at,
                duration_ms: r.duration_ms,
                passed: r.passed,
                failed: r.failed,
                skipped: r.result["summary"]["skipped"].as_u64().unwrap_or(0),
                scope: (!eval).then(|| r.result["scope"].clone()),
                model: of_eval("model"),
                suite: of_eval("suite"),
                metrics: of_eval("metrics"),
            }
        })
        .collect();
    Ok(Json(Page {
        total,
        page,
        limit,
        list,
    }))
}

/// How a stored run is answered.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RunFormat {
    /// `json` (default) or `junit` (JUnit XML, for CI systems).
    #[param(inline)]
    format: Option<RunFormatName>,
}

/// The formats of a stored run.
#[derive(Debug, Clone, Copy, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum RunFormatName {
    /// The `AutotestResult` as JSON.
    Json,
    /// JUnit XML: one testsuite per group of checks, failures and skips with their message.
    Junit,
}

fn stored_run(
    state: &AppState,
    id: &str,
) -> Result<deskmate_store::autotest::AutotestRun, AppError> {
    state
        .deskmate
        .store()
        .ok_or_else(|| AppError::Internal("no database".into()))?
        .autotest_run(id)
        .map_err(|e| AppError::Internal(e.to_string()))?
        .ok_or_else(|| AppError::NotFound("Autotest run not found".into()))
}

/// A stored autotest run's result (an evaluation, stored beside them, is not one).
fn result_of(run: deskmate_store::autotest::AutotestRun) -> Result<AutotestResult, AppError> {
    if run.kind == "eval" {
        return Err(AppError::NotFound("Autotest run not found".into()));
    }
    AutotestResult::from_stored(run.result)
        .map_err(|e| AppError::Internal(format!("the stored run cannot be read: {e}")))
}

/// `GET /api/v1/tools/autotest/runs/{id}`: one stored run's result, as JSON or JUnit XML.
#[utoipa::path(get, path = "/api/v1/tools/autotest/runs/{id}", tag = "autotest", params(("id" = String, Path, description = "Run id"), RunFormat), responses((status = 200, description = "AutotestResult (JSON), or JUnit XML with ?format=junit", content((AutotestResult = "application/json"), (String = "application/xml"))), (status = 404, description = "Autotest run not found")))]
pub async fn run_detail(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiQuery(query): ApiQuery<RunFormat>,
) -> Result<Response, AppError> {
    let run = stored_run(&state, &id)?;
    match query.format.unwrap_or(RunFormatName::Json) {
        RunFormatName::Json => Ok(Json(run.result).into_response()),
        RunFormatName::Junit => {
            let xml = deskmate_autotest::junit(&result_of(run)?);
            let file = format!("attachment; filename=\"deskmate-autotest-{id}.xml\"");
            Ok((
                [
                    (
                        header::CONTENT_TYPE,
                        "application/xml; charset=utf-8".to_string(),
                    ),
                    (header::CONTENT_DISPOSITION, file),
                ],
                xml,
            )
                .into_response())
        }
    }
}

/// With which run to compare.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CompareQuery {
    /// Another run's id (default: the previous run of the same kind and scope).
    with: Option<String>,
}

/// `GET /api/v1/tools/autotest/runs/{id}/compare`: which checks changed status since the
/// previous run of the same kind and scope (or since `?with=`).
#[utoipa::path(get, path = "/api/v1/tools/autotest/runs/{id}/compare", tag = "autotest", params(("id" = String, Path, description = "Run id"), CompareQuery), responses((status = 200, description = "The checks whose status changed", body = Comparison), (status = 404, description = "Autotest run not found")))]
pub async fn compare(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiQuery(query): ApiQuery<CompareQuery>,
) -> Result<Json<Comparison>, AppError> {
    let run = result_of(stored_run(&state, &id)?)?;
    let previous = match query.with {
        Some(other) => Some(stored_run(&state, &other)?),
        None => state
            .deskmate
            .store()
            .ok_or_else(|| AppError::Internal("no database".into()))?
            .previous_autotest_run(&id)
            .map_err(|e| AppError::Internal(e.to_string()))?,
    };
    let previous = previous.map(result_of).transpose()?;
    Ok(Json(deskmate_autotest::compare(&run, previous.as_ref())))
}
