// No console window on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() -> std::process::ExitCode {
    deskmate_host::init_logging();
    match deskmate_app::run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            tracing::error!("{err:#}");
            eprintln!("deskmate: {err:#}");
            std::process::ExitCode::from(1)
        }
    }
}
