//! The camera: a trait with a state machine (off → on → off, both idempotent), the
//! nokhwa backend (V4L2 on Linux, the OS's own elsewhere) and a simulated device whose
//! frames are generated.

use std::sync::Mutex;

use serde::Serialize;

use crate::error::DeviceError;

/// A camera the OS lists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CameraInfo {
    /// Its index (`/dev/videoN` on Linux).
    pub index: u32,
    /// Its name.
    pub name: String,
}

/// A camera that is on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CameraOn {
    /// Its index.
    pub index: u32,
    /// Its name.
    pub device: String,
    /// Frame width.
    pub width: u32,
    /// Frame height.
    pub height: u32,
}

/// Turns a camera on and off and takes frames while it is on.
pub trait Camera: Send + Sync + std::fmt::Debug {
    /// The cameras the OS lists.
    fn list(&self) -> Result<Vec<CameraInfo>, DeviceError>;
    /// Opens the camera (the first one when `index` is `None`) and starts its stream; a
    /// camera already on stays on. Returns it and whether it was already on.
    fn turn_on(&self, index: Option<u32>) -> Result<(CameraOn, bool), DeviceError>;
    /// Stops the stream and releases the device; returns what was on, if anything.
    fn turn_off(&self) -> Result<Option<CameraOn>, DeviceError>;
    /// The camera that is on.
    fn state(&self) -> Option<CameraOn>;
    /// The current frame as JPEG.
    fn frame_jpeg(&self) -> Result<Vec<u8>, DeviceError>;
}

fn off() -> DeviceError {
    DeviceError::NotFound {
        what: "camera stream",
        detail: "the camera is off; turn it on first".into(),
    }
}

/// Encodes RGB pixels as JPEG.
pub fn jpeg(rgb: &[u8], width: u32, height: u32) -> Result<Vec<u8>, DeviceError> {
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 85)
        .encode(rgb, width, height, image::ExtendedColorType::Rgb8)
        .map_err(|e| DeviceError::Failed {
            what: "camera",
            detail: format!("cannot encode the frame: {e}").into(),
        })?;
    Ok(out)
}

/// A camera whose frames are generated (a moving gradient), for tests and evaluations.
#[derive(Debug, Default)]
pub struct SimulatedCamera {
    on: Mutex<Option<(CameraOn, u32)>>,
}

impl Camera for SimulatedCamera {
    fn list(&self) -> Result<Vec<CameraInfo>, DeviceError> {
        Ok(vec![CameraInfo {
            index: 0,
            name: "Simulated camera".into(),
        }])
    }

    fn turn_on(&self, index: Option<u32>) -> Result<(CameraOn, bool), DeviceError> {
        let mut on = self
            .on
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((camera, _)) = on.as_ref() {
            return Ok((camera.clone(), true));
        }
        let index = index.unwrap_or(0);
        if index != 0 {
            return Err(DeviceError::NotFound {
                what: "camera",
                detail: format!("no camera {index}; cameras: 0 (Simulated camera)").into(),
            });
        }
        let camera = CameraOn {
            index,
            device: "Simulated camera".into(),
            width: 320,
            height: 240,
        };
        *on = Some((camera.clone(), 0));
        Ok((camera, false))
    }

    fn turn_off(&self) -> Result<Option<CameraOn>, DeviceError> {
        Ok(self
            .on
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
            .map(|(camera, _)| camera))
    }

    fn state(&self) -> Option<CameraOn> {
        self.on
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .as_ref()
            .map(|(camera, _)| camera.clone())
    }

    fn frame_jpeg(&self) -> Result<Vec<u8>, DeviceError> {
        let mut on = self
            .on
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let (camera, count) = on.as_mut().ok_or_else(off)?;
        *count += 1;
        let (w, h, t) = (camera.width, camera.height, *count);
        let mut rgb = Vec::with_capacity((w * h * 3) as usize);
        for y in 0..h {
            for x in 0..w {
                rgb.extend_from_slice(&[
                    ((x + t * 7) % 256) as u8,
                    ((y + t * 3) % 256) as u8,
                    ((x + y) % 256) as u8,
                ]);
            }
        }
        jpeg(&rgb, w, h)
    }
}

#[cfg(any(target_os = "linux", target_os = "windows", target_os = "macos"))]
pub use native::NokhwaCamera;

#[cfg(any(target_os = "linux", target_os = "windows", target_os = "macos"))]
mod native {
    use std::sync::Mutex;

    use nokhwa::pixel_format::RgbFormat;
    use nokhwa::utils::{ApiBackend, CameraIndex, RequestedFormat, RequestedFormatType};

    use super::{Camera, CameraInfo, CameraOn, jpeg, off};
    use crate::error::DeviceError;

    const WHAT: &str = "camera";

    /// A real camera through nokhwa; the stream runs from turn_on to turn_off.
    #[derive(Default)]
    pub struct NokhwaCamera {
        on: Mutex<Option<(nokhwa::Camera, CameraOn)>>,
    }

    impl std::fmt::Debug for NokhwaCamera {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("NokhwaCamera")
                .field("on", &self.state())
                .finish()
        }
    }

    fn map(error: nokhwa::NokhwaError) -> DeviceError {
        let text = error.to_string();
        if text.contains("busy") || text.contains("Busy") || text.contains("os error 16") {
            DeviceError::Busy {
                what: WHAT,
                detail: text.into(),
            }
        } else if text.contains("No such file") || text.contains("os error 2") {
            DeviceError::NotFound {
                what: WHAT,
                detail: text.into(),
            }
        } else {
            DeviceError::Failed {
                what: WHAT,
                detail: text.into(),
            }
        }
    }

    impl Camera for NokhwaCamera {
        fn list(&self) -> Result<Vec<CameraInfo>, DeviceError> {
            let found = nokhwa::query(ApiBackend::Auto).map_err(map)?;
            Ok(found
                .iter()
                .filter_map(|info| match info.index() {
                    CameraIndex::Index(i) => Some(CameraInfo {
                        index: *i,
                        name: info.human_name(),
                    }),
                    CameraIndex::String(_) => None,
                })
                .collect())
        }

        fn turn_on(&self, index: Option<u32>) -> Result<(CameraOn, bool), DeviceError> {
            let mut on = self
                .on
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if let Some((_, camera)) = on.as_ref() {
                return Ok((camera.clone(), true));
            }
            let cameras = self.list()?;
            let chosen = match index {
                Some(i) => cameras.iter().find(|c| c.index == i),
                None => cameras.first(),
            };
            let Some(chosen) = chosen.cloned() else {
                let listed: Vec<String> = cameras
                    .iter()
                    .map(|c| format!("{} ({})", c.index, c.name))
                    .collect();
                return Err(DeviceError::NotFound {
                    what: WHAT,
                    detail: if listed.is_empty() {
                        deskmate_core::said!("没有连接摄像头", "no camera is connected")
                    } else {
                        let (index, listed) = (index.unwrap_or(0), listed.join(", "));
                        deskmate_core::said!(
                            "没有编号为 {index} 的摄像头；现有摄像头：{listed}",
                            "no camera {index}; cameras: {listed}"
                        )
                    },
                });
            };
            let request = RequestedFormat::new::<RgbFormat>(RequestedFormatType::None);
            let mut camera =
                nokhwa::Camera::new(CameraIndex::Index(chosen.index), request).map_err(map)?;
            camera.open_stream().map_err(map)?;
            let resolution = camera.resolution();
            let state = CameraOn {
                index: chosen.index,
                device: chosen.name,
                width: resolution.width(),
                height: resolution.height(),
            };
            *on = Some((camera, state.clone()));
            Ok((state, false))
        }

        fn turn_off(&self) -> Result<Option<CameraOn>, DeviceError> {
            let taken = self
                .on
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .take();
            match taken {
                Some((mut camera, state)) => {
                    camera.stop_stream().map_err(map)?;
                    Ok(Some(state))
                }
                None => Ok(None),
            }
        }

        fn state(&self) -> Option<CameraOn> {
            self.on
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .as_ref()
                .map(|(_, state)| state.clone())
        }

        fn frame_jpeg(&self) -> Result<Vec<u8>, DeviceError> {
            let mut on = self
                .on
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let (camera, _) = on.as_mut().ok_or_else(off)?;
            let frame = camera.frame().map_err(map)?;
            let rgb = frame.decode_image::<RgbFormat>().map_err(map)?;
            jpeg(rgb.as_raw(), rgb.width(), rgb.height())
        }
    }
}
