//! The `page` and `limit` query parameters of the listings, one rule for all: `page`
//! counts from 1, `limit` is 1 to [`MAX_LIMIT`]. A value out of range is a 400 that
//! says the range, so a client learns the rule instead of getting another page than
//! it asked for. (The query structs declare the same bounds to the OpenAPI document:
//! `#[param(minimum = 1, maximum = 1000000)]` for a page, `maximum = 1000` for a
//! limit.)

use crate::error::AppError;

/// Most items one page holds.
pub const MAX_LIMIT: u32 = 1000;
/// The highest page number asked for.
pub const MAX_PAGE: u32 = 1_000_000;

/// The page (default 1) and limit (default `default_limit`) asked for.
pub fn paging(
    page: Option<u32>,
    limit: Option<u32>,
    default_limit: u32,
) -> Result<(u32, u32), AppError> {
    Ok((
        page.map_or(Ok(1), |p| within("page", p, MAX_PAGE))?,
        limit.map_or(Ok(default_limit), |l| within("limit", l, MAX_LIMIT))?,
    ))
}

fn within(name: &str, value: u32, max: u32) -> Result<u32, AppError> {
    if (1..=max).contains(&value) {
        Ok(value)
    } else {
        Err(AppError::BadRequest(format!(
            "{name} must be 1 to {max}, not {value}"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_apply_and_out_of_range_is_refused() {
        assert_eq!(paging(None, None, 50).ok(), Some((1, 50)));
        assert_eq!(paging(Some(3), Some(1000), 50).ok(), Some((3, 1000)));
        for (page, limit) in [(Some(0), None), (None, Some(0)), (None, Some(1001))] {
            let err = paging(page, limit, 50).err().map(|e| e.to_string());
            assert!(
                err.as_deref().is_some_and(|e| e.contains("must be 1 to")),
                "{err:?}"
            );
        }
    }
}
