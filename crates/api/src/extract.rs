//! Extractors whose rejections are JSON errors with a clear status.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use deskmate_service::body::Body;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::AppError;

/// A JSON body; malformed JSON, wrong content type and oversized bodies answer JSON errors.
#[derive(Debug)]
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(value)) => Ok(Self(value)),
            Err(JsonRejection::MissingJsonContentType(_)) => Err(AppError::UnsupportedMediaType(
                "the body must be JSON".into(),
            )),
            Err(JsonRejection::BytesRejection(e))
                if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE =>
            {
                Err(AppError::TooLarge)
            }
            Err(JsonRejection::JsonDataError(e)) => Err(AppError::BadRequest(format!(
                "the JSON has the wrong shape: {}",
                e.body_text()
            ))),
            Err(e) => Err(AppError::BadRequest(format!(
                "the body is not valid JSON: {}",
                e.body_text()
            ))),
        }
    }
}

/// A typed request body ([`Body`]): JSON errors as [`ApiJson`]; a body that is JSON but
/// not a valid `T` answers 422 with every wrong field (path, what is wrong, how to fix it).
#[derive(Debug)]
pub struct ApiBody<T>(pub T);

impl<S, T> FromRequest<S> for ApiBody<T>
where
    T: Body,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let ApiJson(body) = ApiJson::<Value>::from_request(req, state).await?;
        T::read(&body).map(Self).map_err(AppError::Invalid)
    }
}

/// Query parameters; wrong types answer 400 JSON.
#[derive(Debug)]
pub struct ApiQuery<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiQuery<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(value)) => Ok(Self(value)),
            Err(QueryRejection::FailedToDeserializeQueryString(e)) => Err(AppError::BadRequest(
                format!("bad query parameters: {}", e.body_text()),
            )),
            Err(e) => Err(AppError::BadRequest(e.body_text())),
        }
    }
}
