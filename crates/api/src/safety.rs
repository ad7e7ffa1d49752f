//! Loopback-only safety: the Host must be a loopback name (no DNS rebinding), browser
//! requests must come from a loopback origin (no cross-site calls), and every endpoint
//! but the health check needs the bearer token.

use axum::extract::{Request, State};
use axum::http::header::{AUTHORIZATION, HOST, ORIGIN};
use axum::middleware::Next;
use axum::response::Response;

use crate::AppState;
use crate::error::AppError;

/// The one endpoint that answers without a token (the API contract's health check).
pub const PUBLIC_PATH: &str = "/api/v1/tools/health";

/// Whether `host` (a Host header or an origin's host, with an optional port) is loopback.
pub fn is_loopback_host(host: &str) -> bool {
    let name = if let Some(rest) = host.strip_prefix('[') {
        rest.split(']').next().unwrap_or_default()
    } else {
        host.rsplit_once(':').map_or(host, |(name, port)| {
            if port.bytes().all(|b| b.is_ascii_digit()) {
                name
            } else {
                host
            }
        })
    };
    let name = name.to_ascii_lowercase();
    name == "localhost"
        || name == "::1"
        || name
            .parse::<std::net::Ipv4Addr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Whether a browser origin is local: the desktop app's webview or a loopback page.
pub fn is_loopback_origin(origin: &str) -> bool {
    if origin == "tauri://localhost" {
        return true;
    }
    let Some((scheme, rest)) = origin.split_once("://") else {
        return false;
    };
    matches!(scheme, "http" | "https")
        && !rest.contains('/')
        && (is_loopback_host(rest) || rest == "tauri.localhost")
}

/// CORS for loopback origins: the desktop app's webview (`tauri://localhost`) calls the
/// API on its loopback port with the launch's token; every other origin is refused
/// earlier by [`loopback_only`].
pub fn cors() -> tower_http::cors::CorsLayer {
    use axum::http::{HeaderValue, Method};
    use tower_http::cors::{AllowHeaders, AllowOrigin, CorsLayer};
    CorsLayer::new()
        .allow_origin(AllowOrigin::predicate(|origin: &HeaderValue, _| {
            origin.to_str().is_ok_and(is_loopback_origin)
        }))
        .allow_methods([
            Method::GET,
            Method::POST,
            Method::PUT,
            Method::PATCH,
            Method::DELETE,
        ])
        .allow_headers(AllowHeaders::mirror_request())
        .max_age(std::time::Duration::from_secs(600))
}

/// Refuses foreign Host headers and cross-site browser requests.
pub async fn loopback_only(request: Request, next: Next) -> Result<Response, AppError> {
    let headers = request.headers();
    // Exactly one Host, and a loopback one: a second Host header is a smuggling attempt.
    let mut hosts = headers.get_all(HOST).iter();
    let host = match (hosts.next(), hosts.next()) {
        (Some(host), None) => host.to_str().ok(),
        (None, None) => request.uri().authority().map(|a| a.as_str()),
        _ => None,
    };
    match host {
        Some(host) if is_loopback_host(host) => {}
        _ => {
            return Err(AppError::Forbidden(
                "Host not allowed: this server answers loopback names only".into(),
            ));
        }
    }
    if let Some(origin) = headers.get(ORIGIN) {
        let allowed = origin.to_str().is_ok_and(is_loopback_origin);
        if !allowed {
            return Err(AppError::Forbidden(
                "cross-origin requests are not allowed".into(),
            ));
        }
        // A loopback origin (the app's webview) is "cross-site" to 127.0.0.1 too.
        return Ok(next.run(request).await);
    }
    if headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) == Some("cross-site") {
        return Err(AppError::Forbidden(
            "cross-site requests are not allowed".into(),
        ));
    }
    Ok(next.run(request).await)
}

/// Requires `Authorization: Bearer <token>` except on the health check.
pub async fn require_token(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Result<Response, AppError> {
    if request.uri().path() != PUBLIC_PATH {
        let presented = request
            .headers()
            .get(AUTHORIZATION)
            .and_then(|h| h.to_str().ok())
            .and_then(|h| h.strip_prefix("Bearer "))
            .map(str::trim);
        if !presented.is_some_and(|t| constant_time_eq(t.as_bytes(), state.token.as_bytes())) {
            return Err(AppError::Unauthorized);
        }
    }
    Ok(next.run(request).await)
}

/// Compares without an early exit, so timing does not reveal a prefix of the token.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_names() {
        for ok in [
            "localhost",
            "localhost:8080",
            "127.0.0.1",
            "127.0.0.1:1",
            "127.1.2.3:80",
            "[::1]",
            "[::1]:9000",
            "LOCALHOST",
        ] {
            assert!(is_loopback_host(ok), "{ok}");
        }
        for bad in [
            "evil.com",
            "evil.com:80",
            "localhost.evil.com",
            "10.0.0.1",
            "0.0.0.0",
            "[::2]",
            "127.0.0.1.nip.io",
            "",
        ] {
            assert!(!is_loopback_host(bad), "{bad}");
        }
        for ok in [
            "http://127.0.0.1:5173",
            "http://localhost",
            "tauri://localhost",
            "http://tauri.localhost",
        ] {
            assert!(is_loopback_origin(ok), "{ok}");
        }
        for bad in [
            "null",
            "https://evil.com",
            "http://127.0.0.1.evil.com",
            "file://",
            "http://localhost/x",
        ] {
            assert!(!is_loopback_origin(bad), "{bad}");
        }
        assert!(
            constant_time_eq(b"abc", b"abc")
                && !constant_time_eq(b"abc", b"abd")
                && !constant_time_eq(b"ab", b"abc")
        );
    }
}
