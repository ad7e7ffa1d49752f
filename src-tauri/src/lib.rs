//! Deskmate's desktop shell. It starts the same service the headless server runs
//! (`deskmate_host::Server`: devices, local models, the REST API on a loopback port with
//! a token made for this launch) and shows the UI in a webview that calls that API: the
//! UI has no other way in, so there is one API. The shell only adds what a desktop app
//! needs: the window (its size and position remembered), a tray icon, a single instance,
//! and a global push-to-talk shortcut whose presses reach the UI as Tauri events — and
//! two commands: `save_text`, which writes a file only where the person chose in the OS
//! save dialog (a conversation's export), and `pick_model_file`, which asks for a GGUF
//! model file in the OS open dialog and returns its path.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use tauri::menu::{Menu, MenuItem};
use tauri::tray::{MouseButton, MouseButtonState, TrayIconBuilder, TrayIconEvent};
use tauri::{AppHandle, Emitter, Manager, RunEvent, WebviewUrl, WebviewWindowBuilder};
use tauri_plugin_dialog::DialogExt;
use tauri_plugin_global_shortcut::{GlobalShortcutExt, Shortcut, ShortcutState};
use tauri_plugin_window_state::StateFlags;

/// The main window's label.
pub const MAIN: &str = "main";

/// The push-to-talk shortcut (hold it to speak).
pub const PUSH_TO_TALK: &str = "CommandOrControl+Shift+Space";

/// The Tauri event the UI receives on the shortcut: payload `"pressed"` or `"released"`.
pub const PUSH_TO_TALK_EVENT: &str = "push-to-talk";

/// The running service, stopped when the app exits.
struct Running(Mutex<Option<deskmate_host::Server>>);

/// The data dir: `DESKMATE_DATA_DIR`, else the OS app-data dir (as for the CLI).
fn data_dir() -> anyhow::Result<PathBuf> {
    match std::env::var_os("DESKMATE_DATA_DIR") {
        Some(dir) if !dir.is_empty() => Ok(dir.into()),
        _ => Ok(deskmate_service::paths::default_data_dir()?),
    }
}

/// The system's language as a BCP 47 tag (`zh-CN`), from the POSIX locale variables in
/// their order of precedence; `None` for the C locale or when unset (the UI then asks
/// the webview).
pub fn system_locale(var: impl Fn(&str) -> Option<String>) -> Option<String> {
    let value = ["LC_ALL", "LC_MESSAGES", "LANG"]
        .into_iter()
        .find_map(|name| var(name).filter(|v| !v.is_empty()))
        .or_else(|| var("LANGUAGE").and_then(|v| v.split(':').next().map(str::to_string)))?;
    let name = value.split(['.', '@']).next().unwrap_or_default();
    if name.is_empty() || name == "C" || name == "POSIX" {
        return None;
    }
    Some(name.replace('_', "-"))
}

/// How the push-to-talk shortcut reads on this OS.
fn shortcut_label() -> &'static str {
    if cfg!(target_os = "macos") {
        "⌘⇧Space"
    } else {
        "Ctrl+Shift+Space"
    }
}

/// Shows, unminimizes and focuses the main window.
fn show(app: &AppHandle) {
    if let Some(window) = app.get_webview_window(MAIN) {
        let _ = window.unminimize();
        let _ = window.show();
        let _ = window.set_focus();
    }
}

fn toggle(app: &AppHandle) {
    if let Some(window) = app.get_webview_window(MAIN) {
        if window.is_visible().unwrap_or(false) {
            let _ = window.hide();
        } else {
            show(app);
        }
    }
}

/// The tray icon: a click toggles the window; its menu shows/hides or quits.
fn tray(app: &tauri::App) -> tauri::Result<()> {
    let toggle_item =
        MenuItem::with_id(app, "toggle", "Show/Hide · 显示/隐藏", true, None::<&str>)?;
    let quit = MenuItem::with_id(app, "quit", "Quit · 退出", true, None::<&str>)?;
    let menu = Menu::with_items(app, &[&toggle_item, &quit])?;
    let mut builder = TrayIconBuilder::with_id("deskmate")
        .tooltip("Deskmate")
        .menu(&menu)
        .show_menu_on_left_click(false)
        .on_menu_event(|app, event| match event.id().as_ref() {
            "toggle" => toggle(app),
            "quit" => app.exit(0),
            _ => {}
        })
        .on_tray_icon_event(|tray, event| {
            if let TrayIconEvent::Click {
                button: MouseButton::Left,
                button_state: MouseButtonState::Up,
                ..
            } = event
            {
                toggle(tray.app_handle());
            }
        });
    if let Some(icon) = app.default_window_icon() {
        builder = builder.icon(icon.clone());
    }
    builder.build(app)?;
    Ok(())
}

/// Asks the person where to save `text` with the OS save dialog (titled `title`, `name`
/// proposed) and
/// writes it there: the path written, or `None` when the dialog was cancelled. The webview
/// has no other way to write a file, so it writes only where the person chose. The text
/// goes to a file beside the chosen one first and is renamed over it, so a failed write
/// leaves no half-written file.
#[tauri::command]
async fn save_text(
    app: AppHandle,
    name: String,
    title: String,
    text: String,
) -> Result<Option<String>, String> {
    let (chosen, picked) = tokio::sync::oneshot::channel();
    let mut dialog = app.dialog().file().set_title(&title).set_file_name(&name);
    // The person's documents (else home), not the directory the app was started in.
    if let Some(folder) = [app.path().document_dir(), app.path().home_dir()]
        .into_iter()
        .flatten()
        .find(|dir| dir.is_dir())
    {
        dialog = dialog.set_directory(folder);
    }
    if let Some(extension) = Path::new(&name).extension().and_then(|e| e.to_str()) {
        dialog = dialog.add_filter(extension.to_uppercase(), &[extension]);
    }
    dialog.save_file(move |path| {
        let _ = chosen.send(path);
    });
    let Some(path) = picked.await.ok().flatten() else {
        return Ok(None);
    };
    let path = path.into_path().map_err(|e| e.to_string())?;
    let partial = path.with_extension("partial");
    let written = async {
        tokio::fs::write(&partial, text.as_bytes()).await?;
        tokio::fs::rename(&partial, &path).await
    };
    if let Err(e) = written.await {
        let _ = tokio::fs::remove_file(&partial).await;
        tracing::warn!("saving {}: {e}", path.display());
        return Err(format!("{}: {e}", path.display()));
    }
    tracing::info!("saved {} ({} bytes)", path.display(), text.len());
    Ok(Some(path.display().to_string()))
}

/// Where the open dialog for a model file starts: the models folder of Deskmate's cache
/// (`DESKMATE_CACHE`, else `~/.cache/deskmate`, then `models`) when it exists, else home.
fn models_folder(cache: Option<PathBuf>, home: Option<PathBuf>) -> Option<PathBuf> {
    deskmate_service::local::cache_dir_of(cache, home.clone())
        .map(|c| c.join("models"))
        .into_iter()
        .chain(home)
        .find(|dir| dir.is_dir())
}

/// Asks the person for a GGUF model file with the OS open dialog (titled `title`): its
/// path, or `None` when the dialog was cancelled. It only reads the choice; the UI adds
/// the model through the REST API, which checks the file.
#[tauri::command]
async fn pick_model_file(app: AppHandle, title: String) -> Result<Option<String>, String> {
    let (chosen, picked) = tokio::sync::oneshot::channel();
    let mut dialog = app
        .dialog()
        .file()
        .set_title(&title)
        .add_filter("GGUF", &["gguf"]);
    let cache = std::env::var_os("DESKMATE_CACHE")
        .filter(|c| !c.is_empty())
        .map(PathBuf::from);
    if let Some(folder) = models_folder(cache, app.path().home_dir().ok()) {
        dialog = dialog.set_directory(folder);
    }
    dialog.pick_file(move |path| {
        let _ = chosen.send(path);
    });
    let Some(path) = picked.await.ok().flatten() else {
        return Ok(None);
    };
    let path = path.into_path().map_err(|e| e.to_string())?;
    Ok(Some(path.display().to_string()))
}

/// Builds and runs the app until it quits.
pub fn run() -> anyhow::Result<()> {
    let data_dir = data_dir()?;
    let local_models = std::env::var("DESKMATE_LOCAL").unwrap_or_else(|_| "auto".into());
    let push_to_talk: Shortcut = PUSH_TO_TALK
        .parse()
        .map_err(|e| anyhow::anyhow!("push-to-talk shortcut {PUSH_TO_TALK}: {e}"))?;
    let app = tauri::Builder::default()
        // First, so a second launch only brings the running window forward.
        .plugin(tauri_plugin_single_instance::init(|app, _args, _cwd| {
            show(app)
        }))
        .plugin(
            tauri_plugin_window_state::Builder::default()
                .with_state_flags(StateFlags::all() - StateFlags::VISIBLE)
                .build(),
        )
        .plugin(
            tauri_plugin_global_shortcut::Builder::new()
                .with_handler(move |app, shortcut, event| {
                    if shortcut == &push_to_talk {
                        let state = match event.state() {
                            ShortcutState::Pressed => "pressed",
                            ShortcutState::Released => "released",
                        };
                        let _ = app.emit_to(MAIN, PUSH_TO_TALK_EVENT, state);
                    }
                })
                .build(),
        )
        .plugin(tauri_plugin_dialog::init())
        .invoke_handler(tauri::generate_handler![save_text, pick_model_file])
        .setup(move |app| {
            let server = tauri::async_runtime::block_on(deskmate_host::Server::start(
                &data_dir,
                std::net::SocketAddr::from(([127, 0, 0, 1], 0)),
                &local_models,
                deskmate_host::random_token(),
            ))?;
            let connection = serde_json::json!({
                "base": server.url(),
                "token": server.token(),
                "pushToTalk": shortcut_label(),
                "locale": system_locale(|name| std::env::var(name).ok()),
            });
            WebviewWindowBuilder::new(app, MAIN, WebviewUrl::App("index.html".into()))
                .title("Deskmate")
                .inner_size(1100.0, 760.0)
                .min_inner_size(720.0, 480.0)
                .initialization_script(format!("window.__DESKMATE__ = {connection};"))
                // Files dropped on the window reach the page as HTML drops (an export
                // dropped on the conversation list is imported).
                .disable_drag_drop_handler()
                .build()?;
            app.manage(Running(Mutex::new(Some(server))));
            if let Err(e) = tray(app) {
                tracing::warn!("no tray icon: {e}");
            }
            if let Err(e) = app.global_shortcut().register(PUSH_TO_TALK) {
                tracing::warn!("push-to-talk shortcut {PUSH_TO_TALK} not available: {e}");
            }
            Ok(())
        })
        .build(tauri::generate_context!())?;
    app.run(|app, event| {
        if let RunEvent::Exit = event {
            let server = app
                .try_state::<Running>()
                .and_then(|running| running.0.lock().ok()?.take());
            if let Some(server) = server {
                tauri::async_runtime::block_on(server.stop());
            }
        }
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{models_folder, system_locale};

    #[test]
    fn the_model_file_dialog_starts_in_the_models_folder_else_home() {
        let home = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let home_path = home.path().to_path_buf();
        assert_eq!(
            models_folder(None, Some(home_path.clone())),
            Some(home_path.clone())
        );
        let models = home_path.join(".cache").join("deskmate").join("models");
        std::fs::create_dir_all(&models).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            models_folder(None, Some(home_path.clone())),
            Some(models.clone())
        );
        let cache = home_path.join("other-cache");
        std::fs::create_dir_all(cache.join("models")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            models_folder(Some(cache.clone()), Some(home_path.clone())),
            Some(cache.join("models"))
        );
        assert_eq!(models_folder(Some(home_path.join("none")), None), None);
    }

    fn locale(vars: &[(&str, &str)]) -> Option<String> {
        system_locale(|name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_string())
        })
    }

    #[test]
    fn the_system_locale_follows_posix_precedence() {
        assert_eq!(locale(&[("LANG", "zh_CN.UTF-8")]).as_deref(), Some("zh-CN"));
        assert_eq!(
            locale(&[("LANG", "zh_CN.UTF-8"), ("LC_ALL", "en_US.UTF-8")]).as_deref(),
            Some("en-US")
        );
        assert_eq!(
            locale(&[("LC_MESSAGES", "de_DE@euro"), ("LANG", "fr_FR")]).as_deref(),
            Some("de-DE")
        );
        assert_eq!(
            locale(&[("LANGUAGE", "zh_TW:en")]).as_deref(),
            Some("zh-TW")
        );
        assert_eq!(locale(&[("LANG", "C.UTF-8")]), None);
        assert_eq!(locale(&[("LC_ALL", "POSIX")]), None);
        assert_eq!(locale(&[]), None);
    }
}
