//! The files group: `upload` (files into a file field, from one folder
//! only) and `pdf` (the page saved as a PDF, into one folder only).

use std::path::{Component, Path, PathBuf};

use base64::Engine;
use driver_core::Driver;
use serde_json::json;

use crate::arguments;
use crate::browser::done_if_interrupted;
use crate::error::ToolError;
use crate::options::Group;
use crate::output::{quote_list, size, Outcome, ToolOutput};
use crate::page_values::PageAnswers;
use crate::tab::Tab;
use crate::tool::{takes, Hints, Returns, Tool};

/// The files group: files into a page, the page into a file. Their handlers are
/// below; `table` says what each field means.
pub(crate) static TOOLS: &[Tool] = &[
    Tool {
        group: Group::Files,
        hints: Hints {
            idempotent: true,
            ..Hints::ACT
        },
        example: r#"`{"element": 7, "paths": ["cv.pdf"]}`"#,
        ..Tool::action(
            "upload",
            "Upload files",
            "Put files from the uploads folder into a file field, or the chooser a button opens.",
            takes!(tab UploadArgs => upload),
        )
    },
    Tool {
        group: Group::Files,
        hints: Hints::LOCAL,
        returns: Returns::Itself,
        example: r#"`{"path": "receipt.pdf"}`"#,
        ..Tool::action(
            "pdf",
            "Save as PDF",
            "Save the page as a PDF file in the output folder; answers where and how large.",
            takes!(tab PdfArgs => pdf),
        )
    },
];

/// The most files one `upload` puts in a field.
const MAX_FILES: usize = 20;

/// Where a file chooser a page opens by script is caught (in the page's
/// world, where its scripts call `input.click()`): while it is set, a file
/// field's `click()` and `showPicker()` mark the field instead of opening a
/// chooser. Undone by [`UNCATCH`].
const CATCH: &str = r#"(() => {
  const key = Symbol.for("tabwright.chooser");
  const proto = HTMLInputElement.prototype;
  if (window[key]) return true;
  const saved = { click: proto.click, showPicker: proto.showPicker };
  window[key] = saved;
  const catcher = (original) => function (...args) {
    if (this.type === "file") { this.setAttribute("data-tabwright-upload", "TOKEN"); return undefined; }
    return original && original.apply(this, args);
  };
  proto.click = catcher(saved.click);
  if (saved.showPicker) proto.showPicker = catcher(saved.showPicker);
  return true;
})()"#;

const UNCATCH: &str = r#"(() => {
  const key = Symbol.for("tabwright.chooser");
  const saved = window[key];
  if (saved) {
    HTMLInputElement.prototype.click = saved.click;
    if (saved.showPicker) HTMLInputElement.prototype.showPicker = saved.showPicker;
    delete window[key];
  }
  return true;
})()"#;

impl Tab<'_> {
    /// An element with no file field of its own may open a chooser by
    /// script when clicked: the chooser is caught (for this one click) and
    /// its field marked with `token`; an error if none opened.
    async fn catch_chooser(
        &self,
        element: u32,
        token: &str,
        selector: &str,
    ) -> Result<(), ToolError> {
        self.browser
            .driver
            .page_world(&CATCH.replace("TOKEN", token))
            .await?;
        let clicked = done_if_interrupted(
            self.browser
                .marks
                .click(&self.browser.driver, element)
                .await,
        );
        let caught = self
            .browser
            .driver
            .page_world(&format!("document.querySelector({selector:?}) !== null"))
            .await;
        let _ = self.browser.driver.page_world(UNCATCH).await;
        clicked?;
        if caught? != true {
            return Err(ToolError::bad(
                "upload",
                format!(
                    "[{}] is not a file field, and clicking it opened no file chooser",
                    element
                ),
            ));
        }
        Ok(())
    }

    pub(crate) async fn upload(&mut self, args: arguments::UploadArgs) -> Outcome {
        let Some(folder) = &self.browser.options.files_dir else {
            return Err(ToolError::bad(
                "upload",
                "no folder is open to uploads: start tabwright with --files-dir DIR and put the files there",
            ));
        };
        if args.paths.is_empty() {
            return Err(ToolError::bad(
                "upload",
                "paths is empty: name at least one file",
            ));
        }
        if args.paths.len() > MAX_FILES {
            return Err(ToolError::bad(
                "upload",
                format!("at most {MAX_FILES} files at a time"),
            ));
        }
        let files = args
            .paths
            .iter()
            .map(|path| inside(folder, path))
            .collect::<Result<Vec<_>, _>>()?;
        hold_files(self.browser, folder, args.element, &files).await?;
        match self.browser.driver.catch_file_choosers(true).await {
            Ok(()) => {
                let put = self.upload_unseen(args.element, &files).await;
                let _ = self.browser.driver.catch_file_choosers(false).await;
                put?;
            }
            // No DevTools events (a remote end without a DevTools socket):
            // only the page's own world can catch a chooser.
            Err(driver_core::DriverError::Unsupported { .. }) => {
                self.upload_in_page(args.element, &files).await?;
            }
            Err(error) => return Err(error.into()),
        }
        let names = names_of(&files);
        self.after(format!(
            "Put {} into [{}].",
            quote_list(&names),
            args.element
        ))
        .await
    }

    /// Puts `files` into the field element `number` stands for, as a
    /// person does: the element is clicked while file choosers are caught
    /// (by the backend, out of the page's sight), and the files go into
    /// the field whose chooser opened, a field a script made and never put
    /// in the document included. A field the click opened no chooser for
    /// is given them by its position. Then the field is read back: files
    /// that did not land in [N]'s field are an error that says so.
    async fn upload_unseen(&self, number: u32, files: &[PathBuf]) -> Result<(), ToolError> {
        let located = self
            .browser
            .marks
            .locate_file(&self.browser.driver, number, None)
            .await?;
        if let Some(field) = &located.file {
            fits(field.multiple, files, || format!("[{number}]"))?;
        }
        let clicked =
            done_if_interrupted(self.browser.marks.click(&self.browser.driver, number).await);
        let chooser = self.browser.driver.take_file_chooser().await;
        clicked?;
        let target = match (chooser?, &located.file) {
            (Some(chooser), _) => {
                fits(chooser.multiple, files, || {
                    format!("the file chooser [{number}] opens")
                })?;
                json!({ "backendNodeId": chooser.backend_node_id })
            }
            (None, Some(field)) => match &field.path {
                Some(path) => json!({ "nodeId": self.node_at(path).await? }),
                None => {
                    return Err(ToolError::bad(
                        "upload",
                        format!("[{number}]'s file field is inside a web component and clicking it opened no file chooser"),
                    ))
                }
            },
            (None, None) => {
                return Err(ToolError::bad(
                    "upload",
                    format!("[{number}] is not a file field, and clicking it opened no file chooser"),
                ))
            }
        };
        self.put_files(target, files).await?;
        if located.file.is_some() {
            let now = self
                .browser
                .marks
                .locate_file(&self.browser.driver, number, None)
                .await?;
            let held = now.file.map(|field| field.files).unwrap_or_default();
            if !names_of(files).iter().all(|name| {
                held.iter()
                    .any(|file| crate::page_strings::same(file, name))
            }) {
                return Err(ToolError::bad(
                    "upload",
                    format!("the page opened its file chooser for another field than [{number}]'s, so the files went there and not into [{number}]; take a snapshot"),
                ));
            }
        }
        Ok(())
    }

    /// [`upload_unseen`](Self::upload_unseen) where the backend hears no
    /// DevTools events: the field is marked with an attribute, and a
    /// chooser a script opens is caught in the page's own world, both of
    /// which the page can see.
    async fn upload_in_page(&self, number: u32, files: &[PathBuf]) -> Result<(), ToolError> {
        let token = format!("{:x}", driver_core::random_u64());
        let selector = format!("[data-tabwright-upload=\"{token}\"]");
        let answer = self
            .browser
            .marks
            .locate_file(&self.browser.driver, number, Some(&token))
            .await?;
        match answer.file {
            Some(field) => fits(field.multiple, files, || format!("[{number}]"))?,
            None => self.catch_chooser(number, &token, &selector).await?,
        }
        let set = self.set_files(&selector, files).await;
        let _ = self
            .browser.driver
            .own_world(
                &[],
                &format!("document.querySelector({selector:?})?.removeAttribute('data-tabwright-upload')"),
            )
            .await;
        set
    }

    /// The DevTools node id of what `selector` finds in the top document.
    async fn node_at(&self, selector: &str) -> Result<i64, ToolError> {
        let document = self
            .browser
            .driver
            .devtools_answer("DOM.getDocument", json!({ "depth": 0 }))
            .await?;
        let root = document.get("root").get("nodeId").as_i64().ok_or_else(|| {
            ToolError::bad(
                "upload",
                "the page's document could not be read; take a snapshot and try again",
            )
        })?;
        let found = self
            .browser
            .driver
            .devtools_answer(
                "DOM.querySelector",
                json!({ "nodeId": root, "selector": selector }),
            )
            .await?;
        found
            .get("nodeId")
            .as_i64()
            .filter(|id| *id > 0)
            .ok_or_else(|| {
                ToolError::bad(
                    "upload",
                    "the file field went away; take a snapshot and try again",
                )
            })
    }

    /// Gives the file field `target` names (`nodeId` or `backendNodeId`)
    /// these files, as a person choosing them would (`input` and `change`
    /// fire).
    async fn put_files(
        &self,
        target: serde_json::Value,
        files: &[PathBuf],
    ) -> Result<(), ToolError> {
        let mut params = target;
        params["files"] = json!(files
            .iter()
            .map(|file| file.to_string_lossy().into_owned())
            .collect::<Vec<_>>());
        self.browser
            .driver
            .devtools_answer("DOM.setFileInputFiles", params)
            .await?;
        Ok(())
    }

    /// Gives the file field `selector` finds in the top document these
    /// files, as a person choosing them would (`input` and `change` fire).
    async fn set_files(&self, selector: &str, files: &[PathBuf]) -> Result<(), ToolError> {
        let node = self.node_at(selector).await?;
        self.put_files(json!({ "nodeId": node }), files).await
    }

    pub(crate) async fn pdf(&mut self, args: arguments::PdfArgs) -> Outcome {
        let Some(folder) = &self.browser.options.output_dir else {
            return Err(ToolError::bad(
                "pdf",
                "no output folder was given: start tabwright with --output-dir DIR",
            ));
        };
        let name = plain_name("pdf", &args.path)?;
        let name = if name.to_ascii_lowercase().ends_with(".pdf") {
            name.to_owned()
        } else {
            format!("{name}.pdf")
        };
        let printed = self
            .browser
            .driver
            .devtools_answer("Page.printToPDF", json!({ "printBackground": true }))
            .await?;
        #[allow(clippy::disallowed_methods)] // decoded as bytes, never shown
        let data = printed
            .get("data")
            .untrusted()
            .as_str()
            .and_then(|data| base64::engine::general_purpose::STANDARD.decode(data).ok())
            .ok_or_else(|| ToolError::bad("pdf", "the browser printed nothing; try again"))?;
        std::fs::create_dir_all(folder)
            .and_then(|()| std::fs::write(folder.join(&name), &data))
            .map_err(|error| {
                ToolError::bad(
                    "pdf",
                    format!("cannot write {name} in {}: {error}", folder.display()),
                )
            })?;
        Ok(ToolOutput::text(format!(
            "Saved the page as {} ({}).",
            folder.join(&name).display(),
            size(data.len() as u64)
        )))
    }
}

/// A path the model gave, resolved inside `folder`: relative to it, or
/// absolute and under it; links followed, and the file they lead to must
/// Refuses to hand `files` (resolved under `folder`) to the document the
/// field `element` is in where the person's rules (`file_origins`) do not
/// send them there: each file must be named by a rule (itself, or a folder
/// it is in) whose origin is that document's.
async fn hold_files(
    browser: &crate::browser::Browser,
    folder: &std::path::Path,
    element: u32,
    files: &[std::path::PathBuf],
) -> Result<(), ToolError> {
    let rules = &browser.options.file_origins;
    if rules.is_empty() {
        return Ok(());
    }
    let driver = &browser.driver;
    let frame = match driver.current_tab().await {
        Ok(tab) => browser
            .marks
            .pointed(&tab, element)
            .map(|(frame, _)| frame)
            .unwrap_or_default(),
        Err(_) => Vec::new(),
    };
    let page = crate::page_values::document_url(driver, &frame).await;
    for file in files {
        let named: Vec<&guard::TaskOrigin> = rules
            .iter()
            .filter(|(path, _)| inside(folder, path).is_ok_and(|rule| file.starts_with(rule)))
            .map(|(_, origin)| origin)
            .collect();
        let shown = crate::page_strings::shown(
            file.strip_prefix(folder.canonicalize().unwrap_or_default())
                .unwrap_or(file)
                .to_string_lossy()
                .as_ref(),
        );
        if named.is_empty() {
            return Err(ToolError::Refused {
                tool: "upload",
                why: format!(
                    "{shown} is not among the files this task hands to any site; upload a file it names, or ask the person (they can allow it with --file-origin FILE=ORIGIN)"
                ),
            });
        }
        if !page
            .as_ref()
            .is_some_and(|page| named.iter().any(|origin| origin.matches_url(page)))
        {
            let goes: Vec<String> = named.iter().map(ToString::to_string).collect();
            let why = match &page {
                Some(page) => {
                    // Where a rule names a part of a site, so does this.
                    let mut here = page.origin().ascii_serialization();
                    if named.iter().any(|origin| origin.path().is_some()) {
                        here.push_str(page.path().trim_end_matches('/'));
                    }
                    let here = crate::page_strings::address(&here);
                    format!(
                        "{shown} may go only to {} and this field is on {here}; upload it there, or ask the person (they can allow it with --file-origin FILE={here})",
                        goes.join(", ")
                    )
                }
                None => format!(
                    "{shown} may go only to {}, and the origin of this field's page cannot be read (a page of no origin, or one still loading); take a snapshot",
                    goes.join(", ")
                ),
            };
            return Err(ToolError::Refused {
                tool: "upload",
                why,
            });
        }
    }
    Ok(())
}

/// still be under it.
pub(crate) fn inside(folder: &Path, path: &str) -> Result<PathBuf, ToolError> {
    let root = folder.canonicalize().map_err(|error| {
        ToolError::bad(
            "upload",
            format!(
                "the uploads folder {} cannot be read: {error}",
                folder.display()
            ),
        )
    })?;
    let asked = Path::new(path.trim());
    let joined = if asked.is_absolute() {
        asked.to_owned()
    } else {
        root.join(asked)
    };
    let resolved = joined.canonicalize().map_err(|_| {
        ToolError::bad(
            "upload",
            format!(
                "there is no file {path:?} in the uploads folder {}",
                folder.display()
            ),
        )
    })?;
    if !resolved.starts_with(&root) {
        return Err(ToolError::bad(
            "upload",
            format!(
                "{path:?} is outside the uploads folder {} (or a link out of it); only files under it may be uploaded",
                folder.display()
            ),
        ));
    }
    if !resolved.is_file() {
        return Err(ToolError::bad("upload", format!("{path:?} is not a file")));
    }
    Ok(resolved)
}

/// A file name with no folder in it.
pub(crate) fn plain_name<'a>(tool: &'static str, name: &'a str) -> Result<&'a str, ToolError> {
    let name = name.trim();
    let mut parts = Path::new(name).components();
    match (parts.next(), parts.next()) {
        (Some(Component::Normal(_)), None) if !name.starts_with('.') && name.len() <= 200 => {
            Ok(name)
        }
        _ => Err(ToolError::bad(
            tool,
            format!("{name:?} must be a plain file name (no folders, not starting with a dot)"),
        )),
    }
}

/// Whether `files` fit a field (or chooser) that takes several or one;
/// `what` names it in the error.
fn fits(multiple: bool, files: &[PathBuf], what: impl FnOnce() -> String) -> Result<(), ToolError> {
    if multiple || files.len() <= 1 {
        return Ok(());
    }
    Err(ToolError::bad(
        "upload",
        format!("{} takes one file, not {}", what(), files.len()),
    ))
}

/// The names of files, as a file field shows them.
fn names_of(files: &[PathBuf]) -> Vec<String> {
    files
        .iter()
        .map(|file| {
            file.file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_default()
        })
        .collect()
}
