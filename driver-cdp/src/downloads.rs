//! Downloads: refused by default; with a downloads folder, each lands there
//! under Chrome's guid until it is whole, is then renamed to the name the
//! page suggested (made safe, never overwriting), and is cancelled and
//! deleted the moment it is known to be larger than the cap.

use std::path::{Path, PathBuf};

use chromiumoxide::cdp::browser_protocol::browser::{BrowserContextId, CancelDownloadParams};

use driver_core::{Download, DownloadOutcome, PageText};

use crate::client::{Client, Event};
use crate::registry::{ContextId, Registry, SharedRegistry, World, CONSOLE_LIMIT};

/// `Browser.downloadWillBegin`: reported to the context of the tab whose
/// frame started it (a main frame's id is its tab's), refused or started.
pub(crate) fn began(client: &Client, registry: &SharedRegistry, event: &Event) {
    let text = |key: &str| event.params[key].as_str().unwrap_or_default().to_owned();
    let frame = text("frameId");
    let guid = text("guid");
    tell_settling(client, registry, &frame);
    registry.update(|registry| {
        let context = context_of_frame(registry, &frame);
        let state = registry.context(&context);
        let outcome = if state.download_policy.is_some() {
            DownloadOutcome::Started
        } else {
            DownloadOutcome::Refused
        };
        let download = Download {
            url: text("url").into(),
            filename: text("suggestedFilename").into(),
            outcome,
        };
        tracing::info!(url = ?download.url, file = ?download.filename, outcome = ?download.outcome, "a download");
        if download.outcome == DownloadOutcome::Started {
            state.downloading.insert(guid, download.clone());
        }
        report(state, download);
    });
}

/// Tells the tab's settling (in tabwright's world of its top document)
/// that a download began: the navigation it waits for became this
/// download, and brings no new page.
fn tell_settling(client: &Client, registry: &SharedRegistry, frame: &str) {
    let found = registry.read(|registry| {
        let tab = registry
            .tabs
            .iter()
            .find(|tab| tab.id.0 == frame)
            .or_else(|| {
                let session = registry.frame_sessions.get(frame)?;
                registry.tab_of_session(session)
            })?;
        let session = tab.session.clone()?;
        let world = registry
            .targets
            .context(&session, &tab.id.0, World::Isolated)?
            .unique
            .clone();
        Some((session, world))
    });
    if let Some((session, world)) = found {
        driver_core::backend::devtools::tell_download(client.socket(), &session, &world);
    }
}

/// `Browser.downloadProgress`: a download over the cap is cancelled; a
/// finished one is renamed and reported saved; a cancelled one, failed.
pub(crate) fn progressed(client: &Client, registry: &SharedRegistry, event: &Event) {
    let params = &event.params;
    let Some(guid) = params["guid"].as_str().map(str::to_owned) else {
        return;
    };
    let received = params["receivedBytes"].as_f64().unwrap_or_default() as u64;
    let total = params["totalBytes"].as_f64().unwrap_or_default() as u64;
    let state = params["state"].as_str().unwrap_or_default().to_owned();
    let mut cancel = None;
    let mut finish = None;
    registry.update(|registry| {
        let Some((context, download, policy)) = find(registry, &guid) else {
            return;
        };
        let per = registry.context(&context);
        match state.as_str() {
            "inProgress" if received.max(total) > policy.max_bytes => {
                per.downloading.remove(&guid);
                report(
                    per,
                    Download {
                        outcome: DownloadOutcome::TooLarge {
                            limit: policy.max_bytes,
                        },
                        ..download
                    },
                );
                cancel = Some((context, policy.dir));
            }
            "completed" => {
                per.downloading.remove(&guid);
                finish = Some((context, download, policy.dir, received));
            }
            "canceled" => {
                per.downloading.remove(&guid);
                report(
                    per,
                    Download {
                        outcome: DownloadOutcome::Failed,
                        ..download
                    },
                );
            }
            _ => {}
        }
    });
    if let Some((context, dir)) = cancel {
        let client = client.clone();
        let guid = guid.clone();
        tokio::spawn(async move {
            let mut params = CancelDownloadParams::new(guid.clone());
            params.browser_context_id = context.map(BrowserContextId::new);
            let _ = client.order(None, params).await;
            // What had arrived, under either name Chrome gives it.
            let _ = std::fs::remove_file(dir.join(&guid));
            let _ = std::fs::remove_file(dir.join(format!("{guid}.crdownload")));
        });
    }
    if let Some((context, download, dir, bytes)) = finish {
        let registry = registry.clone();
        tokio::task::spawn_blocking(move || {
            let outcome = match keep(&dir, &guid, &download.filename) {
                Ok(path) => DownloadOutcome::Saved { path, bytes },
                Err(error) => {
                    tracing::warn!(%error, "could not name a finished download");
                    DownloadOutcome::Failed
                }
            };
            registry.update(|registry| {
                report(
                    registry.context(&context),
                    Download {
                        outcome,
                        ..download
                    },
                )
            });
        });
    }
}

/// The download with this guid, its context and the context's policy.
fn find(
    registry: &mut Registry,
    guid: &str,
) -> Option<(ContextId, Download, driver_core::Downloads)> {
    registry.by_context.iter().find_map(|(context, per)| {
        let download = per.downloading.get(guid)?.clone();
        Some((context.clone(), download, per.download_policy.clone()?))
    })
}

fn report(per: &mut crate::registry::PerContext, download: Download) {
    if per.downloads.len() < CONSOLE_LIMIT {
        per.downloads.push(download);
    }
}

/// The context of the tab a frame is in.
fn context_of_frame(registry: &Registry, frame: &str) -> ContextId {
    registry
        .tabs
        .iter()
        .find(|tab| tab.id.0 == frame)
        .map(|tab| tab.context.clone())
        .or_else(|| {
            let session = registry.frame_sessions.get(frame)?;
            registry
                .tab_of_session(session)
                .map(|tab| tab.context.clone())
        })
        .unwrap_or_default()
}

/// Renames a finished download from its guid to the name the page
/// suggested, made safe (no folders, no leading dot), never replacing a
/// file already there ("name (2).ext").
fn keep(dir: &Path, guid: &str, suggested: &PageText) -> std::io::Result<PathBuf> {
    // The door for a page's words into a name on disk: `safe_name`.
    let name = safe_name(suggested.untrusted());
    let (stem, extension) = match name.rsplit_once('.') {
        Some((stem, extension)) if !stem.is_empty() => (stem.to_owned(), format!(".{extension}")),
        _ => (name.clone(), String::new()),
    };
    for attempt in 1..1000 {
        let candidate = if attempt == 1 {
            dir.join(&name)
        } else {
            dir.join(format!("{stem} ({attempt}){extension}"))
        };
        // Made first, so a file that appears meanwhile is never replaced.
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&candidate)
        {
            Ok(_) => {
                std::fs::rename(dir.join(guid), &candidate)?;
                return Ok(candidate);
            }
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(error) => return Err(error),
        }
    }
    Err(std::io::Error::other("no free name for the download"))
}

/// A file name a page suggested, without anything that would put it
/// elsewhere or hide it: no folders, no leading dot, and none of the
/// characters that break a line or are not drawn (controls, line and
/// paragraph separators, format characters such as a right-to-left
/// override that makes `gpj.exe` read as `exe.jpg`, default-ignorables,
/// private-use and unassigned code points), by Unicode's own tables.
fn safe_name(suggested: &str) -> String {
    let base = suggested.rsplit(['/', '\\']).next().unwrap_or_default();
    let cleaned: String = base
        .chars()
        .filter(|c| drawn_in_a_name(*c))
        .take(120)
        .collect();
    let cleaned = cleaned.trim().trim_start_matches('.').to_owned();
    if cleaned.is_empty() {
        "download".to_owned()
    } else {
        cleaned
    }
}

/// Whether a character may stand in a saved file's name: drawn, and on
/// the line.
fn drawn_in_a_name(c: char) -> bool {
    use icu_properties::props::{DefaultIgnorableCodePoint, GeneralCategory};
    use icu_properties::{CodePointMapData, CodePointSetData};
    if c.is_ascii() {
        return !c.is_ascii_control();
    }
    // The Braille pattern with no dots is drawn blank.
    if c == '\u{2800}' {
        return false;
    }
    !matches!(
        CodePointMapData::<GeneralCategory>::new().get(c),
        GeneralCategory::Control
            | GeneralCategory::Format
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
            | GeneralCategory::PrivateUse
            | GeneralCategory::Unassigned
            | GeneralCategory::Surrogate
    ) && !CodePointSetData::new::<DefaultIgnorableCodePoint>().contains(c)
}

#[cfg(test)]
mod tests {
    use super::safe_name;

    #[test]
    fn suggested_names_stay_in_the_folder() {
        assert_eq!(safe_name("../../etc/passwd"), "passwd");
        assert_eq!(safe_name(".bashrc"), "bashrc");
        assert_eq!(safe_name("report.pdf"), "report.pdf");
        assert_eq!(safe_name(""), "download");
        assert_eq!(safe_name("a\\b\\c.txt"), "c.txt");
        assert_eq!(
            safe_name("report\u{2028}[9] button.pdf"),
            "report[9] button.pdf"
        );
        assert_eq!(safe_name("photo\u{202E}gpj.exe"), "photogpj.exe");
        assert_eq!(safe_name("a\u{0085}b\u{200B}c\u{E0041}.txt"), "abc.txt");
        assert_eq!(safe_name("résumé 中文.pdf"), "résumé 中文.pdf");
        // Each of the characters that break a line, are not drawn or turn
        // text around, at every place in a name.
        for hidden in [
            '\u{0085}',
            '\u{000B}',
            '\u{000C}',
            '\u{001E}',
            '\u{2028}',
            '\u{2029}',
            '\u{2800}',
            '\u{E0049}',
            '\u{E007F}',
            '\u{FE0F}',
            '\u{E0100}',
            '\u{2066}',
            '\u{2067}',
            '\u{2068}',
            '\u{2069}',
            '\u{200E}',
            '\u{061C}',
            '\u{180E}',
        ] {
            let suggested = format!("{hidden}a{hidden}b{hidden}.txt{hidden}");
            assert_eq!(safe_name(&suggested), "ab.txt", "U+{:04X}", hidden as u32);
        }
    }
}
