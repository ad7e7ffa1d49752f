//! The envelopes the API answers with around the service's views: a whole list, one
//! page of a list, a deletion. Each derives its schema, so the OpenAPI document names
//! every field a client reads.

use serde::Serialize;
use utoipa::ToSchema;

/// A whole list and its length.
#[derive(Debug, Serialize, ToSchema)]
pub struct Listed<T: ToSchema> {
    /// How many items `list` has.
    pub total: usize,
    /// The items.
    pub list: Vec<T>,
}

impl<T: ToSchema> Listed<T> {
    /// The list, counted.
    pub fn new(list: Vec<T>) -> Self {
        Self {
            total: list.len(),
            list,
        }
    }
}

/// One page of a longer list.
#[derive(Debug, Serialize, ToSchema)]
pub struct Page<T: ToSchema> {
    /// How many items the whole list has.
    pub total: u64,
    /// This page's number, from 1.
    pub page: u32,
    /// Most items a page holds.
    pub limit: u32,
    /// The items of this page.
    pub list: Vec<T>,
}

/// A list without a count (the client shows it as it comes).
#[derive(Debug, Serialize, ToSchema)]
pub struct Items<T: ToSchema> {
    /// The items.
    pub list: Vec<T>,
}

/// What was deleted, by id.
#[derive(Debug, Serialize, ToSchema)]
pub struct Deleted {
    /// Always `true`: a deletion that did not happen is an error answer.
    pub deleted: bool,
    /// The id of what was deleted.
    pub id: String,
}

impl Deleted {
    /// The deletion of `id`.
    pub fn new(id: impl Into<String>) -> Self {
        Self {
            deleted: true,
            id: id.into(),
        }
    }
}
