//! No module of a workspace crate imports, directly or through others, a module that
//! imports it back: each crate's modules form layers, so any one of them can be read (and
//! tested) with only what is below it. Checked on the source text: every `crate::`,
//! `super::` and `self::` path outside the tests is an edge to the module it names, and a
//! name a parent re-exports (`pub use child::Name`) is an edge to the child that defines
//! it. A parent's paths into its own children (a crate root or `mod.rs` wiring the modules
//! it declares) are not edges: the children may use what their parent defines, and the
//! parent composes them. A circle is reported with the modules in it.
//!
//! One place is allowed its circle: the schedule parser's grammar (`parse` and its parts),
//! a recursive-descent grammar whose rules refer to each other by nature.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// Circles confined to these modules (crate, module prefix) are allowed.
const ALLOWED: [(&str, &str); 1] = [("schedule", "parse")];

/// One source file as a module: its path in the crate (`""` for the root) and its text
/// with comments, strings and the test module taken out.
struct Module {
    path: String,
    /// Whether it declares child modules by file (a crate root or `mod.rs`): its bare
    /// `child::` paths then name its own children.
    parent_file: bool,
    text: String,
}

fn modules(src: &Path) -> Vec<Module> {
    let mut files = Vec::new();
    collect(src, &mut files);
    files
        .into_iter()
        .filter_map(|file| {
            let rel = file.strip_prefix(src).ok()?.with_extension("");
            let parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            let last = parts.last()?.as_str();
            let (path, parent_file) = match last {
                "lib" | "main" if parts.len() == 1 => (String::new(), true),
                "mod" => (parts[..parts.len() - 1].join("::"), true),
                _ if parts.first().is_some_and(|p| p == "bin") => return None,
                _ => (parts.join("::"), false),
            };
            let text = std::fs::read_to_string(&file).ok()?;
            Some(Module {
                path,
                parent_file,
                text: code_only(&text),
            })
        })
        .collect()
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The text without comments, string and char literals, and the `#[cfg(test)]` module.
fn code_only(text: &str) -> String {
    let cut = text.find("#[cfg(test)]\nmod tests").unwrap_or(text.len());
    let chars: Vec<char> = text[..cut].chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == 'r' && matches!(next, Some('"' | '#')) && !ident_before(&chars, i) {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            while j < chars.len() {
                if chars[j] == '"' && (1..=hashes).all(|k| chars.get(j + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            i += 3;
        } else if c == '\'' && next == Some('\\') {
            i += 2;
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident_before(chars: &[char], i: usize) -> bool {
    i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths of the use tree or path starting at `text` (just after a `crate::`,
/// `super::`, `self::` or `child::`), each as its segments.
fn paths(text: &[char]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    tree(text, &mut 0, Vec::new(), &mut out);
    out
}

fn tree(text: &[char], at: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let skip = |at: &mut usize| {
        while text.get(*at).is_some_and(|c| c.is_whitespace()) {
            *at += 1;
        }
    };
    let mut path = prefix;
    loop {
        skip(at);
        if text.get(*at) == Some(&'{') {
            *at += 1;
            loop {
                skip(at);
                match text.get(*at) {
                    Some('}') => {
                        *at += 1;
                        break;
                    }
                    Some(',') => *at += 1,
                    None => break,
                    _ => {
                        let before = *at;
                        tree(text, at, path.clone(), out);
                        if *at == before {
                            *at += 1;
                        }
                    }
                }
            }
            return;
        }
        let start = *at;
        while text.get(*at).is_some_and(|&c| is_ident(c)) {
            *at += 1;
        }
        if *at == start {
            out.push(path);
            return;
        }
        path.push(text[start..*at].iter().collect());
        skip(at);
        if text.get(*at) == Some(&':') && text.get(*at + 1) == Some(&':') {
            *at += 2;
        } else {
            // `as name` and the rest do not change what is named.
            out.push(path);
            return;
        }
    }
}

/// The module a path (segments, from the crate root) names: its longest prefix that is a
/// module, then a name that module re-exports from a child, followed.
fn resolve(
    segments: &[String],
    known: &BTreeSet<String>,
    reexports: &HashMap<(String, String), String>,
) -> String {
    let mut module = String::new();
    for segment in segments {
        let deeper = if module.is_empty() {
            segment.clone()
        } else {
            format!("{module}::{segment}")
        };
        if known.contains(&deeper) {
            module = deeper;
        } else if let Some(from) = reexports.get(&(module.clone(), segment.clone())) {
            return from.clone();
        } else {
            break;
        }
    }
    module
}

fn parent(path: &str) -> String {
    path.rsplit_once("::")
        .map_or_else(String::new, |(p, _)| p.to_string())
}

/// `rest` from module `base`, with its `super`s and `self`s taken.
fn join(base: &str, rest: &[String]) -> Vec<String> {
    let mut path: Vec<String> = base
        .split("::")
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    for segment in rest {
        match segment.as_str() {
            "super" => {
                path.pop();
            }
            "self" => {}
            _ => path.push(segment.clone()),
        }
    }
    path
}

/// Each module's edges: the modules it names (not itself).
fn graph(modules: &[Module]) -> BTreeMap<String, BTreeSet<String>> {
    let known: BTreeSet<String> = modules.iter().map(|m| m.path.clone()).collect();
    // Names a module re-exports from one of its children: `pub use child::{A, B}`.
    let mut reexports = HashMap::new();
    for m in modules {
        for line in m.text.lines() {
            let Some(rest) = line.trim().strip_prefix("pub use ") else {
                continue;
            };
            let chars: Vec<char> = rest.chars().collect();
            for path in paths(&chars) {
                let from = if path.first().is_some_and(|s| s == "crate") {
                    path[1..].to_vec()
                } else {
                    join(&m.path, &path)
                };
                let source = resolve(
                    &from[..from.len().saturating_sub(1)],
                    &known,
                    &HashMap::new(),
                );
                if let Some(name) = path.last() {
                    reexports.insert((m.path.clone(), name.clone()), source);
                }
            }
        }
    }
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for m in modules {
        let children: BTreeSet<String> = known
            .iter()
            .filter(|k| !k.is_empty() && parent(k) == m.path)
            .map(|k| k.rsplit("::").next().unwrap_or(k).to_string())
            .collect();
        let mut named = Vec::new();
        // Re-exports are not edges: what is named through them is followed to the child.
        let code: String = m
            .text
            .lines()
            .filter(|l| {
                let l = l.trim();
                !l.starts_with("pub use ") && !l.starts_with("pub(crate) use ")
            })
            .collect::<Vec<_>>()
            .join("\n");
        let code: Vec<char> = code.chars().collect();
        let mut i = 0;
        while i < code.len() {
            if !is_ident(code[i]) || (i > 0 && (is_ident(code[i - 1]) || code[i - 1] == ':')) {
                i += 1;
                continue;
            }
            let start = i;
            while i < code.len() && is_ident(code[i]) {
                i += 1;
            }
            let word: String = code[start..i].iter().collect();
            if code.get(i) != Some(&':') || code.get(i + 1) != Some(&':') {
                continue;
            }
            let rest = &code[i + 2..];
            let base = match word.as_str() {
                "crate" => Some(String::new()),
                "super" => Some(parent(&m.path)),
                "self" => Some(m.path.clone()),
                w if m.parent_file && children.contains(w) => Some(if m.path.is_empty() {
                    w.to_string()
                } else {
                    format!("{}::{w}", m.path)
                }),
                _ => None,
            };
            if let Some(base) = base {
                for path in paths(rest) {
                    named.push(join(&base, &path));
                }
            }
        }
        let entry = edges.entry(m.path.clone()).or_default();
        for path in named {
            let to = resolve(&path, &known, &reexports);
            // A parent's paths into its own children wire them: not a layer above it.
            let below =
                m.path.is_empty() && !to.is_empty() || to.starts_with(&format!("{}::", m.path));
            if to != m.path && !below {
                entry.insert(to);
            }
        }
    }
    edges
}

/// The strongly connected groups of more than one module (Tarjan).
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: HashMap<&'a str, usize>,
        low: HashMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on.insert(v);
        for w in s.edges.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut group = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(w);
                group.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                s.found.push(group);
            }
        }
    }
    let mut state = State {
        edges,
        index: HashMap::new(),
        low: HashMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !state.index.contains_key(v.as_str()) {
            visit(&mut state, v);
        }
    }
    state.found
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn no_crate_has_an_import_circle() {
    let mut sources: Vec<(String, PathBuf)> = std::fs::read_dir(workspace().join("crates"))
        .expect("crates/")
        .flatten()
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                e.path().join("src"),
            )
        })
        .collect();
    sources.push(("src-tauri".into(), workspace().join("src-tauri/src")));
    let mut found = Vec::new();
    let mut read = 0;
    for (krate, src) in sources {
        if !src.is_dir() {
            continue;
        }
        let modules = modules(&src);
        read += modules.len();
        for circle in circles(&graph(&modules)) {
            let allowed = ALLOWED.iter().any(|(c, prefix)| {
                *c == krate
                    && circle
                        .iter()
                        .all(|m| m == prefix || m.starts_with(&format!("{prefix}::")))
            });
            if !allowed {
                found.push(format!("{krate}: {}", circle.join(" → ")));
            }
        }
    }
    assert!(read > 100, "only {read} source files were read");
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

/// The check finds what it is for: circles through `crate::`, `super::super::`, a
/// re-exported name, and none where the edges go one way or a parent uses its children.
#[test]
fn a_circle_is_found_however_it_is_written() {
    let module = |path: &str, parent_file: bool, text: &str| Module {
        path: path.into(),
        parent_file,
        text: code_only(text),
    };
    let circle = [
        module("", true, "mod a;\nmod b;\npub use b::Thing;\n"),
        module("a", false, "use crate::Thing;\n"),
        module(
            "b",
            false,
            "use crate::{x::{self, Y}, c};\nfn f() { crate::a::go() }",
        ),
        module("c", false, ""),
        module(
            "x",
            false,
            "// crate::b::nothing\nconst S: &str = \"crate::b\";",
        ),
    ];
    assert_eq!(
        circles(&graph(&circle)),
        [vec!["a".to_string(), "b".into()]]
    );

    let nested = [
        module("", true, "mod p;\nmod r;\nfn f() { p::q::go(); }"),
        module("p", true, "mod q;\n"),
        module("p::q", false, "use super::super::r::helper;\n"),
        module("r", false, "fn g() { crate::p::q::go() }"),
    ];
    assert_eq!(
        circles(&graph(&nested)),
        [vec!["p::q".to_string(), "r".into()]]
    );

    let layered = [
        module("", true, "mod a;\nmod b;\npub use a::Thing;\n"),
        module("a", false, "use crate::b::Other;\n"),
        module("b", false, ""),
    ];
    assert!(circles(&graph(&layered)).is_empty());
}
