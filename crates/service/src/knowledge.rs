//! The local knowledge base: the `knowledge` tool  and the document operations
//! behind the API — add, list, delete, search, and import a folder of .md/.txt files.

use std::path::Path;
use std::sync::Arc;

use async_trait::async_trait;
use deskmate_core::{
    Category, JsonSchema, Localized, SideEffect, ToolError, ToolSpec, read_args, schema_for,
};
use deskmate_store::Store;
use deskmate_store::kb::KbDocument;
use deskmate_tools::{Example, Teaches, Tool, ToolContext};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::ServiceError;
use crate::error::FieldError;

/// Largest document body.
pub const MAX_DOCUMENT_BYTES: usize = 1024 * 1024;

/// A search of the knowledge base: the `knowledge` tool's arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Search {
    #[schemars(
        length(min = 1, max = 500),
        description = "What to look for, in the user's words.",
        extend("x-description-zh" = "要查找的内容，用用户自己的话表述。")
    )]
    query: String,
    #[schemars(
        length(min = 1, max = 64),
        description = "Search only this knowledge base; omit to search all.",
        extend("x-description-zh" = "只搜索这个知识库；省略则搜索全部知识库。")
    )]
    kb_id: Option<String>,
    #[serde(default = "five")]
    #[schemars(
        range(min = 1, max = 20),
        description = "How many passages to return (default 5).",
        extend("x-description-zh" = "返回多少个段落（默认 5）。")
    )]
    limit: u32,
}

fn five() -> u32 {
    5
}

/// The `knowledge` tool: full-text search of the local knowledge base.
#[derive(Debug)]
pub struct KnowledgeTool {
    spec: ToolSpec,
    store: Arc<Store>,
}

impl KnowledgeTool {
    /// The tool over `store`.
    pub fn new(store: Arc<Store>) -> Self {
        Self {
            spec: ToolSpec {
                id: "knowledge".into(),
                name: Localized::new("知识库查询", "Knowledge base"),
                summary: Some(Localized::new(
                    "在你本地的知识库（你自己的笔记和文档）中搜索，找出最相关的段落。",
                    "Searches your local knowledge base (your own notes and documents) for the most relevant passages.",
                )),
                description: "Searches the user's local knowledge base (their own notes and documents) and returns \
                    the best-matching passages with their titles. Use it when the user asks about their own \
                    documents, procedures or notes. Chinese and English queries both work. Read-only."
                    .into(),
                category: Category::Query,
                parameters: schema_for::<Search>(),
                side_effect: SideEffect::Read,
                idempotent: true,
                timeout_ms: 5_000,
                compensation: None,
            },
            store,
        }
    }
}

/// How a person asks to search their notes, in everyday words (beside a request near
/// them).
const EXAMPLES: &[Example] = &[
    Example {
        teaches: Teaches::Wording,
        request: "search my notes about the release process",
        parts: &[],
        calls: &[("knowledge", r#"{"query":"release process"}"#)],
    },
    Example {
        teaches: Teaches::Wording,
        request: "在笔记里查一下请假流程",
        parts: &[],
        calls: &[("knowledge", r#"{"query":"请假流程"}"#)],
    },
];

#[async_trait]
impl Tool for KnowledgeTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn examples(&self) -> &[Example] {
        EXAMPLES
    }

    /// A search answers (no hit is an answer too: the knowledge base may be empty).
    fn self_check(&self) -> deskmate_tools::SelfCheck {
        deskmate_tools::SelfCheck::Sample {
            args: json!({"query": "deskmate", "limit": 1}),
            judge: |answer| match answer["hits"].as_array() {
                Some(hits) => {
                    let found = hits.len();
                    Ok(deskmate_core::said!(
                        "找到 {found} 个段落",
                        "{found} passage(s) found"
                    ))
                }
                None => Err(deskmate_core::said!(
                    "答案中没有命中列表：{answer}",
                    "no list of hits in the answer: {answer}"
                )),
            },
        }
    }

    fn fits(&self, args: &Value) -> Result<(), ToolError> {
        read_args::<Search>(&self.spec.id, args).map(drop)
    }

    async fn run(&self, args: Value, _ctx: ToolContext) -> Result<Value, ToolError> {
        let store = self.store.clone();
        let Search {
            query,
            kb_id,
            limit,
        } = read_args(&self.spec.id, &args)?;
        deskmate_tools::blocking(move || {
            let kb_id = kb_id.as_deref();
            // A knowledge base the person does not have is a wrong call, not "no match":
            // models guess names ("notes", "my_kb") the person never used.
            if let Some(kb) = kb_id {
                let known = store
                    .knowledge_bases()
                    .map_err(|e| ToolError::internal(format!("the knowledge base failed: {e}")))?;
                if !known.iter().any(|k| k == kb) {
                    return Err(ToolError::validation(format!("there is no knowledge base '{kb}'"))
                        .with_hint("leave kb_id out to search every knowledge base, or use one of the options")
                        .with_options(known));
                }
            }
            let hits = store
                .search_documents(kb_id, &query, limit)
                .map_err(|e| ToolError::internal(format!("the knowledge base failed: {e}")))?;
            let mut answer = json!({"query": query, "kb_id": kb_id, "hits": hits});
            if answer["hits"].as_array().is_some_and(Vec::is_empty) {
                answer["note"] = json!("no passage matched; try other words, or omit kb_id to search every knowledge base");
            }
            Ok(answer)
        })
        .await
    }
}

fn valid_kb_id(kb_id: &str) -> bool {
    !kb_id.is_empty()
        && kb_id.len() <= 64
        && kb_id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
}

/// Checks a new document.
pub fn validate_document(kb_id: &str, title: &str, body: &str) -> Result<(), ServiceError> {
    let mut errors = Vec::new();
    if !valid_kb_id(kb_id) {
        errors.push(FieldError {
            path: "/kb_id".into(),
            message: format!("'{kb_id}' is not a valid kb_id"),
            hint: "use 1-64 letters, digits, '_' or '-'".into(),
        });
    }
    if title.trim().is_empty() || title.chars().count() > 200 {
        errors.push(FieldError {
            path: "/title".into(),
            message: "title must have 1 to 200 characters".into(),
            hint: "give the document a short title".into(),
        });
    }
    if body.trim().is_empty() || body.len() > MAX_DOCUMENT_BYTES {
        errors.push(FieldError {
            path: "/body".into(),
            message: format!("body must have 1 to {MAX_DOCUMENT_BYTES} bytes"),
            hint: "split long documents".into(),
        });
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(ServiceError::Invalid(errors))
    }
}

/// What importing a folder did.
#[derive(Debug, Clone, Default, Serialize, utoipa::ToSchema)]
pub struct ImportReport {
    /// Documents added or replaced.
    pub imported: Vec<KbDocument>,
    /// Files left out, with why.
    pub skipped: Vec<Skipped>,
}

/// A file that was not imported.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Skipped {
    /// The file name.
    pub file: String,
    /// Why.
    pub reason: String,
}

/// Imports the `.md` and `.txt` files directly in `folder` into `kb_id`; a file imported
/// before is replaced (matched by its name). The title is a Markdown file's first heading,
/// else the file stem.
pub fn import_folder(
    store: &Store,
    kb_id: &str,
    folder: &Path,
) -> Result<ImportReport, ServiceError> {
    if !valid_kb_id(kb_id) {
        return Err(ServiceError::Invalid(vec![FieldError {
            path: "/kb_id".into(),
            message: format!("'{kb_id}' is not a valid kb_id"),
            hint: "use 1-64 letters, digits, '_' or '-'".into(),
        }]));
    }
    let entries = std::fs::read_dir(folder).map_err(|e| {
        ServiceError::Invalid(vec![FieldError {
            path: "/folder".into(),
            message: format!("cannot read {}: {e}", folder.display()),
            hint: "give the path of an existing folder".into(),
        }])
    })?;
    let mut files: Vec<std::path::PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    let mut report = ImportReport::default();
    for path in files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let extension = path
            .extension()
            .map(|e| e.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        if !matches!(extension.as_str(), "md" | "txt" | "markdown") {
            report.skipped.push(Skipped {
                file: name,
                reason: "not a .md or .txt file".into(),
            });
            continue;
        }
        let body = match std::fs::read(&path) {
            Ok(bytes) if bytes.len() > MAX_DOCUMENT_BYTES => {
                report.skipped.push(Skipped {
                    file: name,
                    reason: format!("larger than {MAX_DOCUMENT_BYTES} bytes"),
                });
                continue;
            }
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(text) => text,
                Err(_) => {
                    report.skipped.push(Skipped {
                        file: name,
                        reason: "not UTF-8 text".into(),
                    });
                    continue;
                }
            },
            Err(e) => {
                report.skipped.push(Skipped {
                    file: name,
                    reason: e.to_string(),
                });
                continue;
            }
        };
        if body.trim().is_empty() {
            report.skipped.push(Skipped {
                file: name,
                reason: "empty".into(),
            });
            continue;
        }
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| name.clone());
        let title = body
            .lines()
            .find_map(|l| l.strip_prefix("# ").map(|t| t.trim().to_string()))
            .filter(|t| !t.is_empty())
            .unwrap_or(stem);
        let title: String = title.chars().take(200).collect();
        report
            .imported
            .push(store.add_document(kb_id, &title, &body, Some(&name))?);
    }
    Ok(report)
}
