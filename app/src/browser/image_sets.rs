//! Fetching the bundled image set and reading a picked folder (`crate::image_sets` has
//! the rules). Sets go on the environments' shelf for the tab's life; the browser's HTTP
//! cache keeps the bundled zip between visits.

use envs::visgym::images::{shelf, Bundle, ImageSet, BUNDLES};

use crate::browser::files::read_bytes;
use crate::browser::suite_files::bytes_beside_app;
use crate::image_sets::{folder_set, is_read, MAX_FOLDER_BYTES};

/// Fetches the bundled sets these tasks play that this tab lacks; a person's folder
/// that is not loaded is an error naming it (pages cannot reopen folders).
pub async fn load_for_tasks(tasks: &[&bench::Task]) -> Result<(), String> {
    let mut missing: Vec<String> = Vec::new();
    for t in tasks {
        if let Some(name) = crate::image_sets::missing_set(&t.env, &t.kwargs) {
            if !missing.contains(&name) {
                missing.push(name);
            }
        }
    }
    for name in missing {
        match BUNDLES.iter().copied().find(|b| b.name == name) {
            Some(bundle) => {
                load_bundled(bundle).await?;
            }
            None => {
                return Err(format!(
                    "the selected tasks play the pictures of the folder {name:?}, which this \
                     tab has not read"
                ))
            }
        }
    }
    Ok(())
}

/// Fetches a bundled set (unless loaded) and shelves it; its description.
pub async fn load_bundled(bundle: Bundle) -> Result<String, String> {
    if let Some(set) = shelf::get(bundle.name) {
        return Ok(crate::image_sets::describe(&set));
    }
    let zip = bundle.zip;
    let bytes = bytes_beside_app(zip).await?;
    let set = ImageSet::from_zip(&bytes).map_err(|e| format!("{zip}: {e}"))?;
    let text = crate::image_sets::describe(&set);
    shelf::put(bundle.name, set);
    Ok(text)
}

/// The files of a picked folder (`<input webkitdirectory>`), taken out of the input's
/// live list before it is cleared.
pub fn picked_files(list: &web_sys::FileList) -> Vec<web_sys::File> {
    (0..list.length()).filter_map(|i| list.get(i)).collect()
}

/// Reads the pictures (and annotation files) of a picked folder, reporting `progress(read, of)`, and shelves
/// them under the folder's name; the name.
pub async fn read_folder(
    files: Vec<web_sys::File>,
    progress: impl Fn(usize, usize),
) -> Result<String, String> {
    let files: Vec<web_sys::File> = files
        .into_iter()
        .filter(|f| is_read(&relative_path(f)))
        .collect();
    let total: f64 = files.iter().map(|f| f.size()).sum();
    if total > MAX_FOLDER_BYTES as f64 {
        return Err(format!(
            "the folder's pictures take {:.1} GB; at most {:.0} GB are read",
            total / 1e9,
            MAX_FOLDER_BYTES as f64 / 1e9
        ));
    }
    let mut read = Vec::with_capacity(files.len());
    for (i, file) in files.iter().enumerate() {
        progress(i, files.len());
        let path = relative_path(file);
        let bytes = read_bytes(file.clone())
            .await
            .map_err(|e| format!("{path}: {e}"))?;
        read.push((path, bytes));
    }
    progress(files.len(), files.len());
    let (name, set) = folder_set(read)?;
    shelf::put(&name, set);
    Ok(name)
}

/// `File.webkitRelativePath` (`Folder/sub/a.png` for a file of a picked folder; not in
/// web-sys's bindings).
fn relative_path(file: &web_sys::File) -> String {
    js_sys::Reflect::get(file, &wasm_bindgen::JsValue::from_str("webkitRelativePath"))
        .ok()
        .and_then(|v| v.as_string())
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| file.name())
}
