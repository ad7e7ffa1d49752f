//! Schedules: reminders, scheduled tool calls and prompts — list, create, read, turn on
//! or off, delete, and the runs of each.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use chrono::Utc;
use deskmate_service::schedules::{NewSchedule, ScheduleChange, ScheduleView};
use deskmate_store::schedules::ScheduleRun;
use serde::Deserialize;

use crate::AppState;
use crate::answers::{Deleted, Page};
use crate::error::AppError;
use crate::extract::{ApiBody, ApiQuery};
use crate::tools::CallOrigin;

/// Listing parameters.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// Page number, from 1.
    #[param(minimum = 1, maximum = 1000000)]
    page: Option<u32>,
    /// Items per page (default 50).
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<u32>,
}

/// Who creates the schedule.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct CreateQuery {
    /// `gui` when the person makes it in the app's window; `api` by default.
    origin: Option<CallOrigin>,
}

fn page_of<T: utoipa::ToSchema>((list, total): (Vec<T>, u64), page: u32, limit: u32) -> Page<T> {
    Page {
        total,
        page,
        limit,
        list,
    }
}

/// `GET /api/v1/schedules`.
#[utoipa::path(get, path = "/api/v1/schedules", tag = "schedules", params(ListQuery), responses((status = 200, description = "One page of the schedules, the next to fire first", body = Page<ScheduleView>)))]
pub async fn list(
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<ListQuery>,
) -> Result<Json<Page<ScheduleView>>, AppError> {
    let (page, limit) = crate::paging::paging(q.page, q.limit, 50)?;
    let offset = (page - 1).saturating_mul(limit);
    let listed = state.deskmate.schedule_book()?.list(limit, offset)?;
    Ok(Json(page_of(listed, page, limit)))
}

/// `POST /api/v1/schedules` → 201.
#[utoipa::path(post, path = "/api/v1/schedules", tag = "schedules", params(CreateQuery), request_body = NewSchedule, responses((status = 201, description = "The schedule, with its rule in words and its next time", body = ScheduleView), (status = 422, description = "{detail, errors}: the field that is wrong"), (status = 403, description = "The tool may never run, or the person said no")))]
pub async fn create(
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<CreateQuery>,
    ApiBody(body): ApiBody<NewSchedule>,
) -> Result<(StatusCode, Json<ScheduleView>), AppError> {
    let origin = match q.origin.unwrap_or_default() {
        CallOrigin::Api => "api",
        CallOrigin::Gui => "gui",
    };
    let created = state
        .deskmate
        .schedule_book()?
        .create(body, origin, None, Utc::now())
        .await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// `GET /api/v1/schedules/{id}`.
#[utoipa::path(get, path = "/api/v1/schedules/{id}", tag = "schedules", params(("id" = String, Path, description = "Schedule id")), responses((status = 200, description = "The schedule", body = ScheduleView), (status = 404, description = "Schedule not found")))]
pub async fn detail(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<ScheduleView>, AppError> {
    Ok(Json(state.deskmate.schedule_book()?.get(&id)?))
}

/// `PUT /api/v1/schedules/{id}`: turns it on or off, or gives it a new time or action.
#[utoipa::path(put, path = "/api/v1/schedules/{id}", tag = "schedules", params(("id" = String, Path, description = "Schedule id")), request_body = ScheduleChange, responses((status = 200, description = "The schedule", body = ScheduleView), (status = 404, description = "Schedule not found"), (status = 422, description = "{detail, errors}: the field that is wrong; nothing changed"), (status = 403, description = "The tool may never run, or the person said no")))]
pub async fn update(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiBody(change): ApiBody<ScheduleChange>,
) -> Result<Json<ScheduleView>, AppError> {
    Ok(Json(
        state
            .deskmate
            .schedule_book()?
            .update(&id, change, Utc::now())
            .await?,
    ))
}

/// `DELETE /api/v1/schedules/{id}`.
#[utoipa::path(delete, path = "/api/v1/schedules/{id}", tag = "schedules", params(("id" = String, Path, description = "Schedule id")), responses((status = 200, description = "The schedule and its runs were deleted", body = Deleted), (status = 404, description = "Schedule not found")))]
pub async fn delete(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Deleted>, AppError> {
    state.deskmate.schedule_book()?.delete(&id)?;
    Ok(Json(Deleted::new(id)))
}

/// `GET /api/v1/schedules/{id}/runs`.
#[utoipa::path(get, path = "/api/v1/schedules/{id}/runs", tag = "schedules", params(("id" = String, Path, description = "Schedule id"), ListQuery), responses((status = 200, description = "One page of its runs, the latest first", body = Page<ScheduleRun>), (status = 404, description = "Schedule not found")))]
pub async fn runs(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiQuery(q): ApiQuery<ListQuery>,
) -> Result<Json<Page<ScheduleRun>>, AppError> {
    let (page, limit) = crate::paging::paging(q.page, q.limit, 50)?;
    let offset = (page - 1).saturating_mul(limit);
    let listed = state.deskmate.schedule_book()?.runs(&id, limit, offset)?;
    Ok(Json(page_of(listed, page, limit)))
}
