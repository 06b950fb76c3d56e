//! How the window's web view paints on a Linux machine with no GPU.
//!
//! WebKitGTK paints page tiles with Skia on the GPU. A machine with no GPU render node (a virtual
//! machine, a remote desktop, CI) gets Mesa's software rasteriser instead, and GPU painting on it
//! costs the web process about 70 MiB more from the start and keeps growing as new content is
//! painted: measured with Sightline's AI answers, most of what stayed behind after each one was
//! allocated inside Mesa. WebKit's own CPU painting (`WEBKIT_SKIA_ENABLE_CPU_RENDERING`) is the
//! path meant for such machines; compositing, and WebGL, still go through GL.
//!
//! A machine with a render node keeps GPU painting, and a user who set the variable themselves
//! keeps their choice.

use std::ffi::OsString;
use std::path::Path;

/// WebKitGTK's switch to paint tiles on the CPU; read by the web process, which inherits it.
pub const CPU_PAINTING_VAR: &str = "WEBKIT_SKIA_ENABLE_CPU_RENDERING";

/// Where Linux lists GPU devices; a render node is `renderD128` and on.
const DRI_DIR: &str = "/dev/dri";

/// Whether to ask for CPU painting: the user has not set the switch, and no GPU can render.
pub fn wants_cpu_painting(user_setting: Option<OsString>, dri_dir: &Path) -> bool {
    user_setting.is_none() && !has_render_node(dri_dir)
}

fn has_render_node(dri_dir: &Path) -> bool {
    std::fs::read_dir(dri_dir)
        .map(|entries| {
            entries
                .flatten()
                .any(|entry| entry.file_name().to_string_lossy().starts_with("renderD"))
        })
        .unwrap_or(false)
}

/// Sets the switch for the web process when this machine needs it. Call first thing in `run`,
/// before any thread exists: changing the environment is not safe once threads read it.
pub fn choose_for_this_machine() {
    if cfg!(target_os = "linux")
        && wants_cpu_painting(std::env::var_os(CPU_PAINTING_VAR), Path::new(DRI_DIR))
    {
        std::env::set_var(CPU_PAINTING_VAR, "1");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_render_node_means_cpu_painting() {
        let dri = tempfile::tempdir().unwrap();
        assert!(wants_cpu_painting(None, dri.path()));
        // A card node alone (display only, or a driver without rendering) is no render node.
        std::fs::write(dri.path().join("card0"), "").unwrap();
        assert!(wants_cpu_painting(None, dri.path()));
        // No /dev/dri at all.
        assert!(wants_cpu_painting(None, &dri.path().join("missing")));
    }

    #[test]
    fn a_render_node_keeps_gpu_painting() {
        let dri = tempfile::tempdir().unwrap();
        std::fs::write(dri.path().join("card0"), "").unwrap();
        std::fs::write(dri.path().join("renderD128"), "").unwrap();
        assert!(!wants_cpu_painting(None, dri.path()));
    }

    #[test]
    fn the_users_own_setting_is_kept() {
        let dri = tempfile::tempdir().unwrap();
        assert!(!wants_cpu_painting(Some("0".into()), dri.path()));
        assert!(!wants_cpu_painting(Some("1".into()), dri.path()));
    }
}
